import { parseAuthorization } from './credentials';

const basic = (s: string) => `Basic ${Buffer.from(s).toString('base64')}`;

describe('parseAuthorization', () => {
  it('reads Basic key:secret, splitting on the first colon only', () => {
    expect(parseAuthorization(basic('key_1:sk_a:b'))).toEqual({ kind: 'basic', key: 'key_1', secret: 'sk_a:b' });
    expect(parseAuthorization(basic('key_1:s').replace('Basic', 'basic'))).toMatchObject({ kind: 'basic' });
  });
  it('recognises the public token literally', () => {
    expect(parseAuthorization('public-auth-token')).toEqual({ kind: 'public' });
  });
  it('reports missing and malformed credentials', () => {
    expect(parseAuthorization(undefined)).toEqual({ kind: 'none' });
    expect(parseAuthorization('Bearer abc').kind).toBe('malformed');
    expect(parseAuthorization(basic('nocolon')).kind).toBe('malformed');
    expect(parseAuthorization(basic(':secret')).kind).toBe('malformed');
  });
});
