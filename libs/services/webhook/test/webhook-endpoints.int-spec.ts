import type { ServiceHarness, Tenant } from '@genasset/testing';
import {
  createEndpoint,
  endpointsPath,
  ISO_MS_UTC,
  projectOwner,
  startWebhookHarness,
  teamOwner,
  uniqueUrl,
  type Owner,
} from './support/webhook-harness';

// Real process, real PostgreSQL and broker on a 2-core machine.
jest.setTimeout(180_000);

describe('webhook endpoint management', () => {
  let harness: ServiceHarness;
  let tenant: Tenant;
  let project: Owner;
  let team: Owner;

  beforeAll(async () => {
    harness = await startWebhookHarness();
    tenant = await harness.tenant();
    project = projectOwner(tenant);
    team = teamOwner(tenant);
  });
  afterAll(() => harness?.close());

  const fieldsOf = (body: any) => Object.keys(body?.infos?.fields ?? {});

  describe.each(['project', 'team'] as const)('%s endpoints', (kind) => {
    const owner = () => (kind === 'project' ? project : team);
    const events = () =>
      kind === 'project'
        ? ['generation.completed', 'model.training.failed']
        : ['team.credit.threshold.crossed'];

    it('create answers 200 with the exact record, secret included', async () => {
      const url = uniqueUrl();
      const res = await harness.request('POST', endpointsPath(owner()), {
        auth: owner().auth,
        body: { url, enabledEvents: events(), description: 'orders' },
      });
      expect(res.status).toBe(200);
      const record = res.body.webhookEndpoint;
      expect(Object.keys(res.body)).toEqual(['webhookEndpoint']);
      expect(record).toEqual({
        id: expect.stringMatching(/^we_[0-9A-Z]{26}$/),
        ownerId: owner().id,
        ownerType: kind,
        url,
        enabledEvents: events(),
        enabled: true,
        description: 'orders',
        nbTotalCalls: 0,
        nbFailedCalls: 0,
        createdAt: expect.stringMatching(ISO_MS_UTC),
        updatedAt: expect.stringMatching(ISO_MS_UTC),
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/),
      });
      expect(record.createdAt).toBe(record.updatedAt);
    });

    it('never shows the secret again: list, update and delete bodies do not contain it; it is stored encrypted', async () => {
      const created = await createEndpoint(harness, owner(), { enabledEvents: events() });
      const list = await harness.request('GET', endpointsPath(owner()), { auth: owner().auth });
      const update = await harness.request('PUT', `${endpointsPath(owner())}/${created.id}`, {
        auth: owner().auth,
        body: { description: 'x' },
      });
      expect(list.status).toBe(200);
      expect(update.status).toBe(200);
      for (const body of [list.body, update.body]) {
        const json = JSON.stringify(body);
        expect(json).not.toContain(created.secret);
        expect(json).not.toContain('whsec_');
        expect(json).not.toMatch(/"secret"/);
      }
      const [row] = await harness.db.query<{ secret_ciphertext: string }>(
        'SELECT secret_ciphertext FROM webhooks.webhook_endpoints WHERE id = $1',
        [created.id],
      );
      expect(row.secret_ciphertext).not.toContain(created.secret.slice(6));
      const deleted = await harness.request('DELETE', `${endpointsPath(owner())}/${created.id}`, {
        auth: owner().auth,
      });
      expect(deleted).toMatchObject({ status: 200, body: {} });
    });

    it("lists the owner's endpoints, oldest first, as { webhookEndpoints }", async () => {
      const fresh = await harness.tenant();
      const o = kind === 'project' ? projectOwner(fresh) : teamOwner(fresh);
      const a = await createEndpoint(harness, o, { enabledEvents: events() });
      const b = await createEndpoint(harness, o, { enabledEvents: ['*'] });
      const res = await harness.request('GET', endpointsPath(o), { auth: o.auth });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['webhookEndpoints']);
      expect(res.body.webhookEndpoints.map((e: any) => e.id)).toEqual([a.id, b.id]);
      const { secret: _secret, ...withoutSecret } = a;
      expect(res.body.webhookEndpoints[0]).toEqual(withoutSecret);
    });

    it('updates url, enabledEvents, description and enabled; updatedAt moves, createdAt stays', async () => {
      const created = await createEndpoint(harness, owner(), { enabledEvents: ['*'], description: 'before' });
      const url = uniqueUrl();
      const res = await harness.request('PUT', `${endpointsPath(owner())}/${created.id}`, {
        auth: owner().auth,
        body: { url, enabledEvents: events(), description: 'after', enabled: false },
      });
      expect(res.status).toBe(200);
      expect(res.body.webhookEndpoint).toMatchObject({
        id: created.id,
        url,
        enabledEvents: events(),
        description: 'after',
        enabled: false,
        createdAt: created.createdAt,
      });
      expect(res.body.webhookEndpoint.updatedAt).toMatch(ISO_MS_UTC);
      expect(res.body.webhookEndpoint.updatedAt >= created.updatedAt).toBe(true);
      const resumed = await harness.request('PUT', `${endpointsPath(owner())}/${created.id}`, {
        auth: owner().auth,
        body: { enabled: true, description: '' },
      });
      expect(resumed.body.webhookEndpoint.enabled).toBe(true);
      expect(resumed.body.webhookEndpoint).not.toHaveProperty('description');
      await harness.request('PUT', `${endpointsPath(owner())}/${created.id}`, {
        auth: owner().auth,
        body: { description: 'again' },
      });
      const cleared = await harness.request('PUT', `${endpointsPath(owner())}/${created.id}`, {
        auth: owner().auth,
        body: { description: null },
      });
      expect(cleared.status).toBe(200);
      expect(cleared.body.webhookEndpoint).not.toHaveProperty('description');
    });

    it('409 for a URL already registered on the same owner, on create and on update', async () => {
      const url = uniqueUrl();
      await createEndpoint(harness, owner(), { url, enabledEvents: events() });
      const again = await harness.request('POST', endpointsPath(owner()), {
        auth: owner().auth,
        body: { url, enabledEvents: events() },
      });
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ apiError: 'conflict' });
      const other = await createEndpoint(harness, owner(), { enabledEvents: events() });
      const moved = await harness.request('PUT', `${endpointsPath(owner())}/${other.id}`, {
        auth: owner().auth,
        body: { url },
      });
      expect(moved.status).toBe(409);
      // Keeping its own URL is no conflict.
      const same = await harness.request('PUT', `${endpointsPath(owner())}/${other.id}`, {
        auth: owner().auth,
        body: { url: other.url },
      });
      expect(same.status).toBe(200);
    });

    it('400 naming the field: empty events, unknown type, relative or malformed URL, * combined', async () => {
      const cases: [object, string][] = [
        [{ url: uniqueUrl(), enabledEvents: [] }, 'enabledEvents'],
        [{ url: uniqueUrl(), enabledEvents: ['generation.exploded'] }, 'enabledEvents'],
        [{ url: uniqueUrl(), enabledEvents: ['*', events()[0]] }, 'enabledEvents'],
        [{ url: '/webhooks', enabledEvents: ['*'] }, 'url'],
        [{ url: 'https://', enabledEvents: ['*'] }, 'url'],
        [{ url: 'not a url', enabledEvents: ['*'] }, 'url'],
        [{ url: 'ftp://example.com/hook', enabledEvents: ['*'] }, 'url'],
        [{ enabledEvents: ['*'] }, 'url'],
        [{ url: uniqueUrl() }, 'enabledEvents'],
        [{ url: null, enabledEvents: ['*'] }, 'url'],
        [{ url: uniqueUrl(), enabledEvents: null }, 'enabledEvents'],
        [{ url: uniqueUrl(), enabledEvents: ['*'], secret: 'whsec_mine' }, 'secret'],
      ];
      for (const [body, field] of cases) {
        const res = await harness.request('POST', endpointsPath(owner()), { auth: owner().auth, body });
        expect({ body, status: res.status, fields: fieldsOf(res.body) }).toEqual({
          body,
          status: 400,
          fields: [field],
        });
      }
      const created = await createEndpoint(harness, owner(), { enabledEvents: events() });
      for (const [body, field] of [
        [{ enabledEvents: [] }, 'enabledEvents'],
        [{ enabledEvents: ['nope'] }, 'enabledEvents'],
        [{ url: 'relative/path' }, 'url'],
        [{ enabled: 'yes' }, 'enabled'],
        // Null is no value for these fields (only description's null means something): 400, not a 500.
        [{ url: null }, 'url'],
        [{ enabledEvents: null }, 'enabledEvents'],
        [{ enabled: null }, 'enabled'],
        [{ enabled: null, description: 'not applied' }, 'enabled'],
      ] as const) {
        const res = await harness.request('PUT', `${endpointsPath(owner())}/${created.id}`, {
          auth: owner().auth,
          body,
        });
        expect({ body, status: res.status, fields: fieldsOf(res.body) }).toEqual({
          body,
          status: 400,
          fields: [field],
        });
      }
      const list = await harness.request('GET', endpointsPath(owner()), { auth: owner().auth });
      const { secret: _secret, ...unchanged } = created;
      expect(list.body.webhookEndpoints.find((e: { id: string }) => e.id === created.id)).toEqual(unchanged);
    });

    it('404 for an unknown endpoint id on update and delete', async () => {
      for (const method of ['PUT', 'DELETE']) {
        const res = await harness.request(method, `${endpointsPath(owner())}/we_01JCZ5Q3J8W6V8XQ1T9G8Q2N7R`, {
          auth: owner().auth,
          body: method === 'PUT' ? { enabled: false } : undefined,
        });
        expect(res.status).toBe(404);
      }
    });
  });

  describe('422 for events of the other owner kind', () => {
    it.each([
      ['project', ['team.credit.threshold.crossed']],
      ['project', ['generation.completed', 'team.credit.threshold.crossed']],
      ['team', ['generation.completed']],
      ['team', ['team.credit.threshold.crossed', 'model.download.completed']],
    ] as const)('%s endpoint with %j', async (kind, enabledEvents) => {
      const owner = kind === 'project' ? project : team;
      const res = await harness.request('POST', endpointsPath(owner), {
        auth: owner.auth,
        body: { url: uniqueUrl(), enabledEvents },
      });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({
        apiError: 'unprocessable_entity',
        infos: { fields: { enabledEvents: expect.any(Array) } },
      });
      const existing = await createEndpoint(harness, owner);
      const update = await harness.request('PUT', `${endpointsPath(owner)}/${existing.id}`, {
        auth: owner.auth,
        body: { enabledEvents },
      });
      expect(update.status).toBe(422);
    });
  });

  it('the 11th endpoint of a team is a 400; deleting one makes room again', async () => {
    const fresh = await harness.tenant();
    const owner = teamOwner(fresh);
    // Concurrent creations must not slip past the limit together.
    const results = await Promise.all(
      Array.from({ length: 12 }, () =>
        harness.request('POST', endpointsPath(owner), {
          auth: owner.auth,
          body: { url: uniqueUrl(), enabledEvents: ['*'] },
        }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(10);
    const refused = results.filter((r) => r.status !== 200);
    expect(refused.map((r) => r.status)).toEqual([400, 400]);
    expect(refused[0].body).toMatchObject({ apiError: 'webhook_endpoint_limit', infos: { limit: 10 } });
    const list = await harness.request('GET', endpointsPath(owner), { auth: owner.auth });
    expect(list.body.webhookEndpoints).toHaveLength(10);
    const victim = list.body.webhookEndpoints[3].id;
    expect(
      (await harness.request('DELETE', `${endpointsPath(owner)}/${victim}`, { auth: owner.auth })).status,
    ).toBe(200);
    expect(
      (
        await harness.request('POST', endpointsPath(owner), {
          auth: owner.auth,
          body: { url: uniqueUrl(), enabledEvents: ['*'] },
        })
      ).status,
    ).toBe(200);
  });

  it('a project is not limited to 10 endpoints', async () => {
    const owner = projectOwner(await harness.tenant());
    for (let i = 0; i < 11; i++) await createEndpoint(harness, owner);
    const list = await harness.request('GET', endpointsPath(owner), { auth: owner.auth });
    expect(list.body.webhookEndpoints).toHaveLength(11);
  });

  it('the same URL may be registered by another owner', async () => {
    const url = uniqueUrl();
    await createEndpoint(harness, project, { url });
    const other = projectOwner(await harness.tenant());
    await createEndpoint(harness, other, { url });
    await createEndpoint(harness, team, { url });
  });

  it('documents the routes in the OpenAPI document', async () => {
    const doc = await harness.request('GET', '/v1/openapi.json');
    const paths = Object.keys(doc.body.paths);
    // pageSize of the delivery log is an integer (1.5 is a 400), as the document says.
    const events = doc.body.paths['/v1/projects/{projectId}/webhook-endpoints/{webhookEndpointId}/events'];
    const pageSize = events.get.parameters.find((p: { name: string }) => p.name === 'pageSize');
    expect(pageSize.schema).toMatchObject({ type: 'integer', minimum: 1 });
    for (const prefix of [
      '/v1/projects/{projectId}/webhook-endpoints',
      '/v1/teams/{teamId}/webhook-endpoints',
    ]) {
      expect(paths).toEqual(
        expect.arrayContaining([
          prefix,
          `${prefix}/{webhookEndpointId}`,
          `${prefix}/{webhookEndpointId}/events`,
          `${prefix}/{webhookEndpointId}/events/{eventId}`,
          `${prefix}/{webhookEndpointId}/events/{eventId}/resend`,
          `${prefix}/{webhookEndpointId}/recover`,
        ]),
      );
      // The delivery operations (extensions): 202 with their bodies, and the errors they give.
      const resend = doc.body.paths[`${prefix}/{webhookEndpointId}/events/{eventId}/resend`].post;
      expect(Object.keys(resend.responses)).toEqual(
        expect.arrayContaining(['202', '401', '403', '404', '409']),
      );
      expect(resend.requestBody).toBeUndefined();
      const recover = doc.body.paths[`${prefix}/{webhookEndpointId}/recover`].post;
      expect(Object.keys(recover.responses)).toEqual(
        expect.arrayContaining(['202', '400', '401', '403', '404', '409']),
      );
      const body = recover.requestBody.content['application/json'].schema.$ref.split('/').pop();
      expect(doc.body.components.schemas[body]).toMatchObject({
        required: ['since'],
        properties: { since: { format: 'date-time' }, until: { format: 'date-time' } },
      });
    }
    expect(doc.body.components.schemas.WebhookEventRecord.properties.resendOf).toMatchObject({
      type: 'string',
    });
    expect(doc.body.components.schemas.WebhookEventRecord.required).not.toContain('resendOf');
  });
});
