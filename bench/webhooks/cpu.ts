import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time (ms) of the processes taking part, from /proc (Linux only; zeros
 * elsewhere): where a run's CPU went, for BENCH_VERBOSE. `idle` is the
 * machine's idle time over all cores: what the run left unused.
 */
export function cpuSnapshot(
  groups: Record<string, (commandLine: string, pid: number) => boolean>,
): Record<string, number> {
  const totals: Record<string, number> = Object.fromEntries(Object.keys(groups).map((g) => [g, 0]));
  let pids: string[] = [];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return totals;
  }
  for (const pid of pids) {
    try {
      const commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      const group = Object.keys(groups).find((g) => groups[g](commandLine, Number(pid)));
      if (!group) continue;
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      totals[group] += (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime, 100 Hz ticks
    } catch {
      // the process ended meanwhile
    }
  }
  try {
    const [, , , , idle, iowait] = readFileSync('/proc/stat', 'utf8').split('\n')[0].split(/\s+/);
    totals.idle = (Number(idle) + Number(iowait)) * 10;
  } catch {
    // not Linux
  }
  return totals;
}

export function cpuDelta(before: Record<string, number>, after: Record<string, number>): string {
  return Object.keys(after)
    .map((k) => `${k} ${after[k] - (before[k] ?? 0)} ms`)
    .join(', ');
}
