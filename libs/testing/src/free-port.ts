import { createServer } from 'node:net';

/**
 * A TCP port that was free a moment ago on 127.0.0.1. The OS picks it (listen
 * on 0), so parallel test workers never race for the same hard-coded number;
 * a small window remains before the caller binds it, which tests tolerate.
 */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close((error) => (error ? reject(error) : resolve(port)));
    });
  });
}
