// Test support (not built into dist/): real node:http servers on 127.0.0.1 and signed bodies
// that a re-serialising receiver would get wrong.
import { randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A fresh endpoint secret per test, shaped like the service's. */
export const newSecret = (): string => `whsec_${randomBytes(24).toString('base64url')}`;

/**
 * A body whose bytes differ from `JSON.stringify(JSON.parse(body))`: odd whitespace and CRLF,
 * an escaped `\u00e9`, literal non-ASCII (BMP and astral), `1.0`, and a trailing newline.
 */
export function unusualBody(
  id = `whevent_${randomBytes(8).toString('hex')}`,
  type = 'generation.completed',
): string {
  return (
    `{ "id" : "${id}",\t"type":"${type}" ,\r\n  "data" : {"jobId":"job_1", "jobType":"txt2img",` +
    ` "prompt":"caf\\u00e9 ☕ naïve 𝄞 日本", "cost": 1.0, "tags":[ ] }\r\n}\n`
  );
}

export interface Loopback {
  url: string;
  server: Server;
  close(): Promise<void>;
}

export async function listen(server: Server): Promise<Loopback> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export const startServer = (handler: RequestListener): Promise<Loopback> => listen(createServer(handler));

export interface Answer {
  status: number;
  body: string;
  json(): unknown;
}

/** POSTs exact bytes (a string is sent as UTF-8) with the given headers. */
export async function post(
  url: string,
  body: string | Uint8Array,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  const text = await response.text();
  return { status: response.status, body: text, json: () => JSON.parse(text) };
}

/** Answers JSON on a Node response. */
export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(value));
}

/** Reads a body independently of the library under test (what express.raw() does). */
export async function collect(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
