import { UrlSigner } from './url-signer';

describe('UrlSigner', () => {
  const signer = new UrlSigner('a-secret-of-sufficient-length');
  const params = { key: 'assets/a.png', expires: 2_000_000_000 };
  const now = 1_900_000_000;

  it('produces a hex HMAC-SHA256 that verifies', () => {
    const signature = signer.sign(params);
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
    expect(signer.verify(params, signature, now)).toBe('valid');
  });

  it('is the HMAC of key and expiry when nothing else is signed in', () => {
    const { createHmac } = jest.requireActual<typeof import('node:crypto')>('node:crypto');
    const expected = createHmac('sha256', 'a-secret-of-sufficient-length')
      .update('assets/a.png\n2000000000')
      .digest('hex');
    expect(signer.sign(params)).toBe(expected);
  });

  it.each([
    ['another key', { ...params, key: 'assets/b.png' }],
    ['a later expiry', { ...params, expires: params.expires + 1 }],
    ['an added download name', { ...params, downloadName: 'x.png' }],
    ['an added content type', { ...params, contentType: 'text/html' }],
  ])('refuses a signature replayed with %s', (_, changed) => {
    expect(signer.verify(changed, signer.sign(params), now)).toBe('invalid');
  });

  it('binds the download name and content type when signed in', () => {
    const named = { ...params, downloadName: 'a.png', contentType: 'image/png' };
    const signature = signer.sign(named);
    expect(signer.verify(named, signature, now)).toBe('valid');
    expect(signer.verify({ ...named, downloadName: 'b.png' }, signature, now)).toBe('invalid');
    expect(signer.verify({ ...named, contentType: 'text/html' }, signature, now)).toBe('invalid');
  });

  it('binds a part upload to its upload, number and size limit, and never as a download', () => {
    const part = { uploadId: 'u1', partNumber: 2, maxBytes: 5_000_000 };
    const put = { ...params, part };
    const signature = signer.sign(put);
    expect(signer.verify(put, signature, now)).toBe('valid');
    expect(signer.verify(params, signature, now)).toBe('invalid');
    expect(signer.verify({ ...params, part }, signer.sign(params), now)).toBe('invalid');
    for (const changed of [
      { ...part, uploadId: 'u2' },
      { ...part, partNumber: 3 },
      { ...part, maxBytes: 5_000_001 },
    ])
      expect(signer.verify({ ...params, part: changed }, signature, now)).toBe('invalid');
  });

  it('reports expiry only for a genuine signature', () => {
    expect(signer.verify(params, signer.sign(params), params.expires + 1)).toBe('expired');
    expect(signer.verify(params, signer.sign(params), params.expires)).toBe('valid');
    expect(signer.verify(params, '0'.repeat(64), params.expires + 1)).toBe('invalid');
  });

  it('refuses malformed signatures and another secret', () => {
    const signature = signer.sign(params);
    for (const bad of ['', 'zz', signature.toUpperCase(), signature.slice(0, 63), `${signature}00`]) {
      expect(signer.verify(params, bad, now)).toBe('invalid');
    }
    expect(new UrlSigner('another-secret-of-enough-length').verify(params, signature, now)).toBe('invalid');
    expect(signer.verify({ ...params, expires: Number.NaN }, signature, now)).toBe('invalid');
  });

  it('needs a secret of at least 16 bytes', () => {
    expect(() => new UrlSigner('short')).toThrow(/at least 16 bytes/);
  });
});
