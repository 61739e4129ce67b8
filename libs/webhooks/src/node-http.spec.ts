import { createHash } from 'node:crypto';
import { request } from 'node:http';
import {
  parseEvent,
  RawBodyTooLargeError,
  readRawBody,
  sign,
  signatureHeaderOf,
  verify,
  WebhookConfigurationError,
} from './index';
import {
  collect,
  Loopback,
  newSecret,
  post,
  sendJson,
  startServer,
  unusualBody,
} from './test-support/loopback';

/** A plain node:http receiver, as the README shows it. */
function receiver(secret: string, limitBytes?: number) {
  return startServer(async (req, res) => {
    try {
      const raw = await readRawBody(req, { limitBytes });
      const result = verify(raw, signatureHeaderOf(req.headers), secret);
      if (!result.ok) return sendJson(res, 400, { reason: result.reason });
      const event = parseEvent(raw);
      sendJson(res, 200, { id: event.id, sha256: createHash('sha256').update(raw).digest('hex') });
    } catch (error) {
      res.setHeader('connection', 'close');
      sendJson(res, error instanceof RawBodyTooLargeError ? 413 : 500, { error: (error as Error).name });
    }
  });
}

/** Sends a body in the given chunks with chunked transfer encoding (no content-length). */
function postChunks(
  url: string,
  chunks: Buffer[],
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        collect(res).then((b) => resolve({ status: res.statusCode!, body: b.toString() }), reject);
      },
    );
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

describe('readRawBody on a real node:http server', () => {
  let secret: string;
  let server: Loopback;
  beforeEach(async () => {
    secret = newSecret();
    server = await receiver(secret, 4096);
  });
  afterEach(() => server.close());

  it('hands verify() the exact bytes that were signed', async () => {
    const body = unusualBody('whevent_node');
    const answer = await post(server.url, body, { 'x-service-signature': sign(body, secret) });
    expect(answer.status).toBe(200);
    expect(answer.json()).toEqual({
      id: 'whevent_node',
      sha256: createHash('sha256').update(body).digest('hex'),
    });
  });

  it('reassembles chunks that split a multi-byte character', async () => {
    const bytes = Buffer.from(unusualBody('whevent_chunks'));
    const snowman = bytes.indexOf(Buffer.from('☕'));
    const chunks = [
      bytes.subarray(0, snowman + 1),
      bytes.subarray(snowman + 1, snowman + 2),
      bytes.subarray(snowman + 2),
    ];
    const answer = await postChunks(server.url, chunks, { 'x-service-signature': sign(bytes, secret) });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).id).toBe('whevent_chunks');
  });

  it('rejects a tampered body with signature_mismatch', async () => {
    const body = unusualBody();
    const answer = await post(server.url, body.replace('txt2img', 'txt2im9'), {
      'x-service-signature': sign(body, secret),
    });
    expect(answer).toMatchObject({ status: 400 });
    expect(answer.json()).toEqual({ reason: 'signature_mismatch' });
  });

  it('stops at limitBytes, whether announced by content-length or streamed', async () => {
    const big = Buffer.alloc(5000, 0x20);
    expect((await post(server.url, big)).status).toBe(413);
    expect((await postChunks(server.url, [big.subarray(0, 3000), big.subarray(3000)], {})).status).toBe(413);
  });

  it('refuses a body that something else already read', async () => {
    const other = await startServer(async (req, res) => {
      await collect(req);
      const error = await readRawBody(req).catch((e: unknown) => e);
      sendJson(res, 200, { configurationError: error instanceof WebhookConfigurationError });
    });
    try {
      expect((await post(other.url, '{}')).json()).toEqual({ configurationError: true });
    } finally {
      await other.close();
    }
  });
});
