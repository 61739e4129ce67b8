import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_TOLERANCE_MS, sign, verify, verifyOrThrow, WebhookVerificationError } from './index';
import { newSecret, unusualBody } from './test-support/loopback';

// The README's worked example; the expected value was also checked with
// `printf '%s' "1700000000000.$BODY" | openssl dgst -sha256 -hmac "$SECRET"`.
const EXAMPLE = {
  secret: 'whsec_example_5b1d9c7e3a2f4e6d8c0b1a29',
  timestamp: 1700000000000,
  body: '{"id":"whevent_01HF3Q5Z8X9Y7W6V5T4S3R2Q1P","type":"generation.completed","data":{"jobId":"job_01HF3Q4K2M","jobType":"txt2img","modelId":"model_sd15"}}',
  header: '1700000000000.21be5783919d807c9683e41896386a924bf3788a4235f57abb5e6bec4b349160',
};

describe('sign', () => {
  it('produces the README worked example', () => {
    expect(sign(EXAMPLE.body, EXAMPLE.secret, EXAMPLE.timestamp)).toBe(EXAMPLE.header);
    expect(verify(EXAMPLE.body, EXAMPLE.header, EXAMPLE.secret, { now: EXAMPLE.timestamp + 1000 })).toEqual({
      ok: true,
      timestamp: EXAMPLE.timestamp,
    });
  });

  it('matches the worked example printed in the README', () => {
    const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');
    for (const text of [
      EXAMPLE.secret,
      String(EXAMPLE.timestamp),
      EXAMPLE.body,
      `X-SERVICE-SIGNATURE: ${EXAMPLE.header}`,
    ]) {
      expect(readme).toContain(text);
    }
  });

  it('is <timestamp>.<hex HMAC-SHA256 of "<timestamp>.<body>"> keyed with the whole secret, whsec_ included', () => {
    const secret = newSecret();
    const body = unusualBody();
    const expected = createHmac('sha256', secret).update(`1234.${body}`).digest('hex');
    expect(sign(body, secret, 1234)).toBe(`1234.${expected}`);
  });

  it('signs bytes: a string, its UTF-8 Buffer and a plain Uint8Array give the same header', () => {
    const secret = newSecret();
    const body = unusualBody();
    const bytes = Buffer.from(body, 'utf8');
    const header = sign(body, secret, 1_700_000_000_000);
    expect(sign(bytes, secret, 1_700_000_000_000)).toBe(header);
    expect(sign(new Uint8Array(bytes), secret, 1_700_000_000_000)).toBe(header);
  });

  it('rejects a non-integer timestamp and an empty secret', () => {
    expect(() => sign('{}', newSecret(), 1.5)).toThrow(RangeError);
    expect(() => sign('{}', newSecret(), -1)).toThrow(RangeError);
    expect(() => sign('{}', '', 1)).toThrow(TypeError);
  });
});

describe('verify', () => {
  const now = 1_700_000_000_000;
  let secret: string;
  let body: string;
  let header: string;
  beforeEach(() => {
    secret = newSecret();
    body = unusualBody();
    header = sign(body, secret, now);
  });

  it('accepts its own signature (round trip) for a string and a Buffer body alike', () => {
    expect(verify(body, header, secret, { now })).toEqual({ ok: true, timestamp: now });
    expect(verify(Buffer.from(body), header, secret, { now })).toEqual({ ok: true, timestamp: now });
    expect(verify(Buffer.from(body), sign(Buffer.from(body), secret, now), secret, { now }).ok).toBe(true);
  });

  it('fails with signature_mismatch when one body byte changes', () => {
    const bytes = Buffer.from(body);
    bytes[bytes.length - 2] ^= 0x01;
    expect(verify(bytes, header, secret, { now })).toEqual({ ok: false, reason: 'signature_mismatch' });
  });

  it('fails for a re-serialised body: only the raw bytes verify', () => {
    const reserialised = JSON.stringify(JSON.parse(body));
    expect(reserialised).not.toBe(body);
    expect(verify(reserialised, header, secret, { now })).toEqual({
      ok: false,
      reason: 'signature_mismatch',
    });
  });

  it('fails with signature_mismatch for a wrong secret, and for the secret without its whsec_ prefix', () => {
    expect(verify(body, header, newSecret(), { now })).toEqual({ ok: false, reason: 'signature_mismatch' });
    expect(verify(body, header, secret.slice('whsec_'.length), { now })).toEqual({
      ok: false,
      reason: 'signature_mismatch',
    });
  });

  it('rejects a timestamp more than the tolerance old, accepts one exactly at it', () => {
    expect(verify(body, header, secret, { now: now + DEFAULT_TOLERANCE_MS })).toEqual({
      ok: true,
      timestamp: now,
    });
    expect(verify(body, header, secret, { now: now + DEFAULT_TOLERANCE_MS + 1 })).toEqual({
      ok: false,
      reason: 'timestamp_too_old',
    });
    expect(verify(body, header, secret, { now: now + 61_000, toleranceMs: 60_000 })).toEqual({
      ok: false,
      reason: 'timestamp_too_old',
    });
  });

  it('rejects a timestamp more than the tolerance in the future', () => {
    expect(verify(body, header, secret, { now: now - DEFAULT_TOLERANCE_MS })).toEqual({
      ok: true,
      timestamp: now,
    });
    expect(verify(body, header, secret, { now: now - DEFAULT_TOLERANCE_MS - 1 })).toEqual({
      ok: false,
      reason: 'timestamp_in_future',
    });
  });

  it('checks the age before the signature, as the spec orders it', () => {
    expect(verify(body, sign(body, newSecret(), now - 600_000), secret, { now })).toEqual({
      ok: false,
      reason: 'timestamp_too_old',
    });
  });

  it('reports missing_header for an absent or empty header', () => {
    expect(verify(body, undefined, secret, { now })).toEqual({ ok: false, reason: 'missing_header' });
    expect(verify(body, '', secret, { now })).toEqual({ ok: false, reason: 'missing_header' });
  });

  it.each([
    ['no dot', () => header.replace('.', '')],
    ['empty timestamp', () => header.slice(header.indexOf('.'))],
    ['empty signature', () => `${now}.`],
    ['non-digit timestamp', () => `1.7e12${header.slice(header.indexOf('.'))}`],
    ['negative timestamp', () => `-${header}`],
    ['space in the timestamp', () => ` ${header}`],
    ['non-hex signature', () => `${now}.${'z'.repeat(64)}`],
    ['signature with a space', () => `${header} `],
  ])('reports malformed_header for %s', (_name, make) => {
    expect(verify(body, make(), secret, { now })).toEqual({ ok: false, reason: 'malformed_header' });
  });

  it('splits on the FIRST dot only: a valid header followed by ".<more>" is malformed, not valid', () => {
    // A naive `const [ts, sig] = header.split('.')` would drop the tail and accept these.
    expect(header.split('.').slice(0, 2).join('.')).toBe(header);
    expect(verify(body, `${header}.extra`, secret, { now })).toEqual({
      ok: false,
      reason: 'malformed_header',
    });
    expect(verify(body, `${header}.${header}`, secret, { now })).toEqual({
      ok: false,
      reason: 'malformed_header',
    });
    // A dot inside the timestamp puts the rest (with its dot) in the signature part: malformed too.
    expect(verify(body, `${now}.0${header.slice(header.indexOf('.'))}`, secret, { now })).toEqual({
      ok: false,
      reason: 'malformed_header',
    });
  });

  it('treats a hex signature of the wrong length as a mismatch, without throwing', () => {
    expect(verify(body, header.slice(0, -2), secret, { now })).toEqual({
      ok: false,
      reason: 'signature_mismatch',
    });
    expect(verify(body, `${header}00`, secret, { now })).toEqual({ ok: false, reason: 'signature_mismatch' });
    expect(verify(body, `${now}.ab`, secret, { now })).toEqual({ ok: false, reason: 'signature_mismatch' });
  });

  it('accepts upper-case hex (the same bytes)', () => {
    const [ts, sig] = [header.slice(0, header.indexOf('.')), header.slice(header.indexOf('.') + 1)];
    expect(verify(body, `${ts}.${sig.toUpperCase()}`, secret, { now }).ok).toBe(true);
  });

  it('refuses a parsed object instead of the raw body, saying why', () => {
    expect(() => verify(JSON.parse(body), header, secret, { now })).toThrow(
      /raw request body is required.*body parser/,
    );
  });

  it('rejects invalid options loudly instead of skipping the age check', () => {
    expect(() => verify(body, header, secret, { now: Number.NaN })).toThrow(RangeError);
    expect(() => verify(body, header, secret, { toleranceMs: -1 })).toThrow(RangeError);
  });
});

describe('verifyOrThrow', () => {
  it('returns the signing time, or throws WebhookVerificationError with the reason and status 400', () => {
    const secret = newSecret();
    const body = unusualBody();
    const now = Date.now();
    expect(verifyOrThrow(body, sign(body, secret, now), secret, { now })).toBe(now);
    let caught: unknown;
    try {
      verifyOrThrow(`${body} `, sign(body, secret, now), secret, { now });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(WebhookVerificationError);
    expect(caught).toMatchObject({
      reason: 'signature_mismatch',
      statusCode: 400,
      name: 'WebhookVerificationError',
    });
  });
});

describe('verify with header values as Node types them', () => {
  it('takes a one-element array as the value and fails several as malformed', () => {
    const secret = newSecret();
    const body = unusualBody();
    const header = sign(body, secret);
    expect(verify(body, [header], secret).ok).toBe(true);
    expect(verify(body, [header, header], secret)).toEqual({ ok: false, reason: 'malformed_header' });
    expect(verify(body, [], secret)).toEqual({ ok: false, reason: 'missing_header' });
  });
});
