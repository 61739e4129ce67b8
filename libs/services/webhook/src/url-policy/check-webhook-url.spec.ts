import { checkWebhookUrl, type ResolveAll } from './check-webhook-url';

const strict = { allowHttp: false, allowPrivate: false };
const records: Record<string, string[]> = {
  'hooks.example.com': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  'internal.example.com': ['10.0.0.5'],
  'mixed.example.com': ['93.184.215.14', '127.0.0.1'],
  'metadata.example.com': ['169.254.169.254'],
  'mapped.example.com': ['::ffff:192.168.0.1'],
  'empty.example.com': [],
};
const resolve: ResolveAll = async (host) => {
  if (host in records) return records[host];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
};

describe('checkWebhookUrl', () => {
  it('accepts an https URL whose every address is public', async () => {
    const result = await checkWebhookUrl('https://hooks.example.com/webhooks?x=1', strict, resolve);
    expect(result).toEqual({ ok: true, url: new URL('https://hooks.example.com/webhooks?x=1') });
  });

  it('accepts a public IP literal without resolving', async () => {
    const never: ResolveAll = () => Promise.reject(new Error('must not resolve'));
    expect((await checkWebhookUrl('https://8.8.8.8/h', strict, never)).ok).toBe(true);
    expect((await checkWebhookUrl('https://[2606:4700:4700::1111]/h', strict, never)).ok).toBe(true);
  });

  const refused: [string, RegExp][] = [
    ['', /empty/],
    ['/relative/path', /absolute/],
    ['hooks.example.com/webhooks', /absolute/],
    ['ftp://hooks.example.com/x', /scheme must be https \(got ftp\)/],
    ['javascript:alert(1)', /scheme/],
    ['http://hooks.example.com/x', /must use https/],
    ['https://user:pw@hooks.example.com/x', /credentials/],
    ['https://user@hooks.example.com/x', /credentials/],
    // A fragment is never sent: `/x#a` and `/x#b` would be two registrations of one target.
    ['https://hooks.example.com/x#a', /fragment/],
    ['https://hooks.example.com/x#', /fragment/],
    ['https://127.0.0.1/x', /127\.0\.0\.1 is a loopback address/],
    ['https://0x7f.1/x', /127\.0\.0\.1 is a loopback address/], // WHATWG URL normalises shorthand IPv4
    ['https://2130706433/x', /127\.0\.0\.1 is a loopback/],
    ['https://[::1]/x', /::1 is a loopback/],
    ['https://[::ffff:127.0.0.1]/x', /loopback/],
    ['https://[fd00:ec2::254]/latest/meta-data', /metadata/],
    ['https://169.254.169.254/latest/meta-data', /metadata/],
    ['https://100.64.1.1/x', /carrier-grade NAT/],
    ['https://[fe80::1]/x', /link-local/],
    ['https://224.0.0.1/x', /multicast/],
    ['https://0.0.0.0/x', /unspecified/],
    ['https://localhost/x', /localhost is a loopback/],
    ['https://api.localhost/x', /loopback/],
    ['https://internal.example.com/x', /resolves to 10\.0\.0\.5, a private address/],
    ['https://mixed.example.com/x', /resolves to 127\.0\.0\.1/],
    ['https://metadata.example.com/x', /cloud metadata/],
    ['https://mapped.example.com/x', /::ffff:192\.168\.0\.1, a private/],
    ['https://nowhere.example.com/x', /does not resolve \(ENOTFOUND\)/],
    ['https://empty.example.com/x', /does not resolve/],
  ];
  it.each(refused)('refuses %j', async (url, reason) => {
    const result = await checkWebhookUrl(url, strict, resolve);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toMatch(reason);
  });

  it('allows http only with allowHttp', async () => {
    expect(
      (await checkWebhookUrl('http://hooks.example.com/x', { allowHttp: true, allowPrivate: false }, resolve))
        .ok,
    ).toBe(true);
  });

  it('allows private and unresolvable hosts with allowPrivate, still refusing bad schemes and credentials', async () => {
    const open = { allowHttp: true, allowPrivate: true };
    expect((await checkWebhookUrl('http://127.0.0.1:8080/x', open, resolve)).ok).toBe(true);
    expect((await checkWebhookUrl('https://internal.example.com/x', open, resolve)).ok).toBe(true);
    expect((await checkWebhookUrl('https://nowhere.example.com/x', open, resolve)).ok).toBe(true);
    expect((await checkWebhookUrl('ftp://127.0.0.1/x', open, resolve)).ok).toBe(false);
    expect((await checkWebhookUrl('http://a:b@127.0.0.1/x', open, resolve)).ok).toBe(false);
    expect((await checkWebhookUrl('http://127.0.0.1/x#frag', open, resolve)).ok).toBe(false);
  });

  it('resolves through DNS by default (localhost is loopback)', async () => {
    const result = await checkWebhookUrl('https://localhost./x', strict);
    expect(result.ok).toBe(false);
  });
});
