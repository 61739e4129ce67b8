import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * A TCP port that is free now on 127.0.0.1, for a server that binds it later (often a spawned
 * process, seconds later). It is picked at random **below the OS's ephemeral range**: a port from
 * that range (what `listen(0)` and every outgoing connection draw from) could be handed to another
 * test worker's server or client in the meantime. CI once lost a run that way: a platform's port
 * went to another worker's `listen(0)` while the platform was starting. Below the range only
 * another freePort can pick it, one chance in ~12,000.
 */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  const [low, high] = candidateRange();
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low + 1));
    if (await bindable(port, host)) return port;
  }
  throw new Error(`freePort: no free port found in ${low}-${high} after 50 tries`);
}

/** 20000 up to just below the ephemeral range (Linux: /proc/sys/net/ipv4/ip_local_port_range, 32768 by default). */
function candidateRange(): [number, number] {
  let ephemeralLow = 32_768;
  try {
    ephemeralLow = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || ephemeralLow;
  } catch {
    // Not Linux: the IANA ephemeral range starts at 49152, so 20000-32767 is outside it too.
  }
  const high = Math.min(ephemeralLow - 1, 32_767);
  return high > 20_000 ? [20_000, high] : [10_000, 19_999];
}

function bindable(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}
