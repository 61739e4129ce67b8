import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * The HTTP server every backend fake listens on: 127.0.0.1 at a free port, its open sockets
 * tracked so that `close()` ends keep-alive and hung connections at once (a fake that is `down`,
 * or a test that ends mid-request, must not keep the process waiting).
 */
export class FakeServer {
  readonly server: Server = createServer();
  private readonly connections = new Set<Socket>();

  constructor() {
    this.server.on('connection', (socket) => {
      this.connections.add(socket);
      socket.on('close', () => this.connections.delete(socket));
    });
  }

  /** Serves `handle` (a request it throws on is reset) and, if given, websocket upgrades; resolves once listening. */
  async listen(
    handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
    upgrade?: (req: IncomingMessage, socket: Socket, head: Buffer) => void,
  ): Promise<void> {
    this.server.on('request', (req: IncomingMessage, res: ServerResponse) => void handle(req, res).catch(() => res.destroy()));
    if (upgrade) this.server.on('upgrade', (req: IncomingMessage, socket, head: Buffer) => upgrade(req, socket as Socket, head));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  /** `http://127.0.0.1:<port>`. */
  get origin(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    for (const socket of this.connections) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
