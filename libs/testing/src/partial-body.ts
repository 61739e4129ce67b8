import { connect } from 'node:net';

export interface PartialBodyRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  /** The Content-Length the request declares. */
  declaredBytes: number;
  /** How much of that body is actually sent (then the client waits). */
  sentBytes: number;
  /** How long to wait for an answer. */
  timeoutMs: number;
}

export interface EarlyAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends a request whose body is only partly sent, then waits: what the server
 * answers before the rest of the body exists (a refusal that did not read the
 * body), or `undefined` when it waits for the body (the deadline passes).
 * Raw HTTP/1.1 over a socket: fetch cannot hold a body back.
 */
export function answerBeforeBody(baseUrl: string, request: PartialBodyRequest): Promise<EarlyAnswer | undefined> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    const finish = (answer: EarlyAnswer | undefined) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(() => finish(undefined), request.timeoutMs);
    socket.on('error', (error) => (chunks.length ? undefined : reject(error)));
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const answer = parseResponse(Buffer.concat(chunks));
      if (answer) finish(answer);
    });
    socket.on('connect', () => {
      const head = [
        `${request.method} ${request.path} HTTP/1.1`,
        `Host: ${hostname}:${port}`,
        `Content-Length: ${request.declaredBytes}`,
        ...Object.entries(request.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
        '',
        '',
      ].join('\r\n');
      socket.write(head);
      socket.write(Buffer.alloc(request.sentBytes, ' '));
    });
  });
}

/** The whole response in `data`, or undefined while some of it is still to come. */
function parseResponse(data: Buffer): EarlyAnswer | undefined {
  const end = data.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine, ...lines] = data.subarray(0, end).toString('latin1').split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(':')).trim().toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  const length = Number(headers['content-length'] ?? 0);
  const body = data.subarray(end + 4);
  if (body.length < length) return undefined;
  return { status: Number(statusLine.split(' ')[1]), headers, body: body.subarray(0, length).toString('utf8') };
}
