import { createServer, type Server } from 'node:http';

/** Forwards to the harness (its address is known only after the backends file is written); 503 until it is. */
export async function forwarder(target: () => string | undefined): Promise<Server> {
  const server = createServer((req, res) => {
    const base = target();
    if (!base) {
      res.writeHead(503).end('the harness is not up yet');
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== 'host' && k !== 'content-length')) as Record<string, string>;
      fetch(`${base}${req.url}`, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined })
        .then(async (r) => res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'text/plain' }).end(Buffer.from(await r.arrayBuffer())))
        .catch(() => res.writeHead(502).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}
