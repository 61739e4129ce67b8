import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time (ms) of the shared services, read from /proc (Linux only; 0 elsewhere):
 * the PostgreSQL server of `databaseUrl` (postmaster, live backends and the
 * backends that already exited) and the mock Kafka broker. Used to show where
 * the machine's CPU went during a measurement.
 */
export function serviceCpuMs(databaseUrl: string | undefined, kafkaControl?: string): { postgres: number; broker: number } {
  // A /proc read now and then fails for a moment (processes come and go
  // while we walk it): read again rather than report a running server as 0.
  for (let attempt = 1; ; attempt++) {
    const found = readServices(databaseUrl, kafkaControl);
    if (((found.postgres > 0 || !databaseUrl) && (found.broker > 0 || !kafkaControl)) || attempt >= 5) return found;
  }
}

function readServices(databaseUrl: string | undefined, kafkaControl?: string): { postgres: number; broker: number } {
  try {
    const port = databaseUrl ? new URL(databaseUrl).port : undefined;
    const procs = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
    let postmaster: string | undefined;
    let broker: string | undefined;
    const parents = new Map<string, string>();
    for (const pid of procs) {
      let cmdline: string;
      let stat: string;
      try {
        cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
        stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      } catch {
        continue;
      }
      parents.set(pid, stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (port && /\/postgres -D /.test(cmdline) && cmdline.includes(`-p ${port} `)) postmaster = pid;
      if (kafkaControl && cmdline.includes('kafka-mock') && cmdline.includes(kafkaControl)) broker = pid;
    }
    let postgres = postmaster ? ticks(postmaster, true) : 0;
    for (const [pid, parent] of parents) if (postmaster && parent === postmaster) postgres += ticks(pid, false);
    return { postgres: toMs(postgres), broker: broker ? toMs(ticks(broker, true)) : 0 };
  } catch {
    return { postgres: 0, broker: 0 };
  }
}

/** Busy CPU time (ms) of the whole machine so far, all cores (0 where /proc/stat is missing). */
export function machineBusyMs(): number {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal: busy = all but idle and iowait.
    const [user, nice, system, , , irq, softirq, steal] = fields;
    return toMs(user + nice + system + irq + softirq + (steal ?? 0));
  } catch {
    return 0;
  }
}

/** utime + stime (+ cutime + cstime: children that exited and were waited for). */
function ticks(pid: string, withChildren: boolean): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (state): utime = field 14, stime 15, cutime 16, cstime 17.
    const f = (n: number) => Number(fields[n - 3]);
    return f(14) + f(15) + (withChildren ? f(16) + f(17) : 0);
  } catch {
    return 0;
  }
}

/** USER_HZ is 100 on every Linux we run on. */
const toMs = (t: number) => t * 10;
