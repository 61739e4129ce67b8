import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/**
 * Which of `pids` owns the loopback TCP connection whose local port is `port` (Linux /proc):
 * the webhook receiver sees only a peer port, this names the dispatcher replica behind it.
 * Read while the request is in flight, so the connection certainly exists. Undefined
 * elsewhere than Linux, or when no candidate holds it.
 */
export function pidOfLocalPort(port: number, pids: readonly number[]): number | undefined {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      // cols[1] = local "IP:PORT" in hex; cols[9] = inode.
      if (cols.length > 9 && parseInt(cols[1].split(':')[1] ?? '', 16) === port && cols[9] !== '0') inodes.add(cols[9]);
    }
  }
  if (!inodes.size) return undefined;
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (match && inodes.has(match[1])) return pid;
      } catch {
        // closed meanwhile
      }
    }
  }
  return undefined;
}
