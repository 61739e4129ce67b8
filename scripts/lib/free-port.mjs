import { createServer } from 'node:net';

/** A port the OS reports free on 127.0.0.1 right now (same approach as libs/testing's freePort). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}
