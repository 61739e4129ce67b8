import type { ServiceHarness, Tenant } from '@genasset/testing';
import {
  createEndpoint,
  endpointsPath,
  projectOwner,
  startWebhookHarness,
  teamOwner,
  type Owner,
} from './support/webhook-harness';

jest.setTimeout(180_000);

// The production defaults (npm test turns both allowances on for every other test).
describe('webhook URL safety at registration (default policy)', () => {
  let harness: ServiceHarness;
  let tenant: Tenant;
  beforeAll(async () => {
    harness = await startWebhookHarness({
      WEBHOOK_ALLOW_HTTP: 'false',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false',
    });
    tenant = await harness.tenant();
  });
  afterAll(() => harness?.close());

  const refused = [
    'http://93.184.216.34/hooks', // http without WEBHOOK_ALLOW_HTTP
    'https://127.0.0.1/hooks',
    'https://localhost:8443/hooks',
    'https://10.1.2.3/hooks',
    'https://192.168.0.10/hooks',
    'https://172.16.5.4/hooks',
    'https://169.254.169.254/latest/meta-data',
    'https://169.254.10.10/hooks',
    'https://[::1]/hooks',
    'https://[fe80::1]/hooks',
    'https://[::ffff:127.0.0.1]/hooks',
    'https://0.0.0.0/hooks',
    'https://user:pass@93.184.216.34/hooks',
  ];

  describe.each(['project', 'team'] as const)('%s endpoints', (kind) => {
    const owner = (): Owner => (kind === 'project' ? projectOwner(tenant) : teamOwner(tenant));

    it.each(refused)('refuses %s with a 400 naming url', async (url) => {
      const res = await harness.request('POST', endpointsPath(owner()), {
        auth: owner().auth,
        body: { url, enabledEvents: ['*'] },
      });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.infos.fields)).toEqual(['url']);
    });

    it('accepts a public https address, and refuses moving it to a private one', async () => {
      const created = await createEndpoint(harness, owner(), { url: 'https://93.184.216.34/hooks/' + kind });
      expect(created.url).toBe(`https://93.184.216.34/hooks/${kind}`);
      const moved = await harness.request('PUT', `${endpointsPath(owner())}/${created.id}`, {
        auth: owner().auth,
        body: { url: 'https://10.0.0.7/hooks' },
      });
      expect(moved.status).toBe(400);
      expect(Object.keys(moved.body.infos.fields)).toEqual(['url']);
    });
  });

  it('stores URLs normalised, so trivially different spellings are the same URL (409)', async () => {
    const owner = projectOwner(tenant);
    const created = await createEndpoint(harness, owner, { url: 'HTTPS://93.184.216.34:443/Same' });
    expect(created.url).toBe('https://93.184.216.34/Same');
    const again = await harness.request('POST', endpointsPath(owner), {
      auth: owner.auth,
      body: { url: 'https://93.184.216.34/Same', enabledEvents: ['*'] },
    });
    expect(again.status).toBe(409);
  });

  it('nothing refused was stored', async () => {
    const rows = await harness.db.query<{ url: string }>('SELECT url FROM webhooks.webhook_endpoints');
    expect(rows.map((r) => r.url).filter((u) => !u.startsWith('https://93.184.216.34/'))).toEqual([]);
  });
});
