import { answered, transportFailure } from './attempt-outcome';

const at = new Date('2026-01-01T00:00:00.000Z');

describe('attempt outcomes', () => {
  it.each([200, 201, 202, 204, 299])('records %i as a 200 success', (status) => {
    expect(answered(status, at, 12)).toEqual({
      responseStatusCode: 200,
      ok: true,
      sentAt: at,
      durationMs: 12,
      error: null,
    });
  });

  it.each([100, 199, 301, 302, 307, 400, 404, 410, 429, 500, 502, 503])(
    'records %i as answered, a failure',
    (status) => {
      expect(answered(status, at, 5)).toMatchObject({
        responseStatusCode: status,
        ok: false,
        error: `HTTP ${status}`,
      });
    },
  );

  const err = (code: string, message = 'boom') => Object.assign(new Error(message), { code });
  it.each([
    ['connection refused', err('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:9'), 500, /ECONNREFUSED/],
    ['connection reset', err('ECONNRESET', 'socket hang up'), 500, /ECONNRESET: socket hang up/],
    ['DNS failure', err('ENOTFOUND', 'getaddrinfo ENOTFOUND nowhere.example'), 500, /ENOTFOUND/],
    ['TLS failure', err('DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate'), 500, /self-signed/],
    ['headers timeout', err('UND_ERR_HEADERS_TIMEOUT'), 500, /timeout: no complete answer within 1000 ms/],
    ['connect timeout', err('UND_ERR_CONNECT_TIMEOUT'), 500, /timeout/],
    [
      'refused target',
      err('WEBHOOK_FORBIDDEN_TARGET', 'x resolves to 10.0.0.1, a private address'),
      500,
      /target refused: x resolves to 10\.0\.0\.1/,
    ],
    ['socket closed', err('UND_ERR_SOCKET', 'other side closed'), 500, /other side closed/],
    [
      'a request we built badly',
      err('UND_ERR_INVALID_ARG', 'invalid header'),
      -1,
      /request not sent: invalid header/,
    ],
  ])('maps %s', (_name, error, code, message) => {
    const outcome = transportFailure(error, at, 7, 1_000, false);
    expect(outcome).toMatchObject({ responseStatusCode: code, ok: false, durationMs: 7 });
    expect(outcome.error).toMatch(message);
  });

  it('maps our own deadline (an abort) to a 500 timeout', () => {
    expect(transportFailure(err('UND_ERR_ABORTED', 'Request aborted'), at, 1_001, 1_000, true)).toMatchObject(
      {
        responseStatusCode: 500,
        error: 'timeout: no complete answer within 1000 ms',
      },
    );
  });

  it('keeps recorded error text short', () => {
    expect(
      transportFailure(new Error('x'.repeat(2_000)), at, 1, 1_000, false).error!.length,
    ).toBeLessThanOrEqual(300);
  });

  it('records a reason PostgreSQL can store: no NUL, no half surrogate pair, even where the cut falls', () => {
    const tls = transportFailure(
      err('ERR_TLS_CERT_ALTNAME_INVALID', 'not in the cert: DNS:bank.example\u0000.evil'),
      at,
      1,
      30_000,
      false,
    );
    expect(tls.error).toContain('bank.example\ufffd.evil');
    // 298 characters, then an emoji the 300-character cut goes through.
    const long = transportFailure(new Error(`${'x'.repeat(298)}😀😀`), at, 1, 30_000, false);
    expect(long.error).toHaveLength(300);
    expect(long.error).toMatch(/^x{298}\ufffd…$/);
  });
});
