import { type FilesServer, startFilesServer } from '../testing/files-server.fixture';
import { signedAgo } from '../testing/signed-ago';

describe('GET /v1/files/*', () => {
  let server: FilesServer;
  beforeAll(async () => {
    server = await startFilesServer({ listen: false });
    await server.store.put('assets/t1/pic ü.png', Buffer.from('PNG'), { contentType: 'image/png' });
  });
  afterAll(() => server.close());

  const pathOf = (url: string): string => {
    const u = new URL(url);
    return u.pathname + u.search;
  };
  const get = (url: string, method: 'GET' | 'HEAD' = 'GET') => server.app.inject({ method, url });

  it('streams the file with its type and no-sniff, sandboxing headers', async () => {
    const res = await get(
      pathOf(await server.store.signedUrl('assets/t1/pic ü.png', { expiresInSeconds: 60 })),
    );
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('PNG');
    expect(res.headers).toMatchObject({
      'content-type': 'image/png',
      'content-length': '3',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
    });
    expect(res.headers['cache-control']).toMatch(/^private, max-age=(59|60)$/);
    expect(res.headers['content-disposition']).toBeUndefined();
  });

  it('adds Content-Disposition when a download name was signed in', async () => {
    const url = await server.store.signedUrl('assets/t1/pic ü.png', {
      expiresInSeconds: 60,
      downloadName: 'résumé "1".png',
    });
    const res = await get(pathOf(url));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="r_sum_ _1_.png"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%221%22.png`,
    );
  });

  it('answers HEAD without a body', async () => {
    const res = await get(
      pathOf(await server.store.signedUrl('assets/t1/pic ü.png', { expiresInSeconds: 60 })),
      'HEAD',
    );
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('');
  });

  it.each([
    ['a wrong signature', (u: URL) => u.searchParams.set('signature', 'f'.repeat(64))],
    ['no signature', (u: URL) => u.searchParams.delete('signature')],
    [
      'a later expiry',
      (u: URL) => u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 3600)),
    ],
    ['an added download name', (u: URL) => u.searchParams.set('name', 'evil.html')],
    ['a changed content type', (u: URL) => u.searchParams.set('type', 'text/html')],
    ['another key', (u: URL) => (u.pathname = u.pathname.replace('pic', 'pix'))],
  ])('answers 403 with the error body for %s', async (_, tamper) => {
    const url = new URL(await server.store.signedUrl('assets/t1/pic ü.png', { expiresInSeconds: 60 }));
    tamper(url);
    const res = await get(url.pathname + url.search);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ apiError: 'forbidden', error: 'Invalid file signature', infos: {} });
  });

  it('never serves an encoded traversal', async () => {
    const signed = new URL(await server.store.signedUrl('assets/t1/pic ü.png', { expiresInSeconds: 60 }));
    // Normalised before routing (404), refused by the router as malformed (400),
    // or reaching the route with a signature that cannot match (403); always the error body.
    const cases = {
      '/v1/files/assets/t1/%2E%2E/%2E%2E/%2E%2E/etc/passwd': 404,
      '/v1/files/%ZZ': 400,
      '/v1/files/..%2F..%2Fetc%2Fpasswd': 403,
    };
    for (const [path, status] of Object.entries(cases)) {
      const res = await get(path + signed.search);
      expect({ path, status: res.statusCode, apiError: typeof res.json().apiError }).toEqual({
        path,
        status,
        apiError: 'string',
      });
    }
  });

  it('answers 403 naming expiry for an expired link', async () => {
    // Signed 3 s ago for 1 s: expired 2 s ago.
    const url = await signedAgo(3_000, () => server.store.signedUrl('assets/t1/pic ü.png', { expiresInSeconds: 1 }));
    const res = await get(pathOf(url));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ apiError: 'forbidden', error: 'File link has expired' });
  });

  it('answers 404 with the error body for a validly signed missing file', async () => {
    const res = await get(
      pathOf(await server.store.signedUrl('assets/t1/gone.png', { expiresInSeconds: 60 })),
    );
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ apiError: 'not_found', error: 'File not found' });
  });

  it('is left out of the OpenAPI document', async () => {
    const doc = (await get('/v1/openapi.json')).json();
    expect(Object.keys(doc.paths).some((p) => p.includes('files'))).toBe(false);
  });
});
