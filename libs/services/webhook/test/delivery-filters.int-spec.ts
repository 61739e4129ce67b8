import { openApiResponseChecker, type ServiceHarness, type Tenant } from '@genasset/testing';
import { logDeliveries, type LoggedDelivery } from './support/delivery-rows';
import {
  createEndpoint,
  endpointsPath,
  projectOwner,
  startWebhookHarness,
  teamOwner,
  type EndpointRecord,
  type Owner,
} from './support/webhook-harness';

jest.setTimeout(120_000);

const HOUR = 3_600_000;
const T0 = Date.now() - 48 * HOUR;
const at = (hours: number) => new Date(T0 + hours * HOUR);

// GET …/events?status=&type=&createdAfter=&createdBefore= (an extension): filters with keyset pagination.
describe('delivery log filters', () => {
  let harness: ServiceHarness;
  let tenant: Tenant;
  let owner: Owner;
  let endpoint: EndpointRecord;
  /** The log as written: ids by index, newest first in the listing order. */
  const log: (LoggedDelivery & { id: string })[] = [];
  const eventsPath = () => `${endpointsPath(owner)}/${endpoint.id}/events`;

  const list = (query: string, auth = owner.auth) =>
    harness.request('GET', `${eventsPath()}?${query}`, { auth });

  /** Every page of a query, following nextPaginationToken; the ids in order. */
  async function allPages(query: string): Promise<{ ids: string[]; pages: number }> {
    const ids: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const res = await list(
        `${query}&pageSize=2${token ? `&paginationToken=${encodeURIComponent(token)}` : ''}`,
      );
      expect(res.status).toBe(200);
      ids.push(...res.body.items.map((i: { id: string }) => i.id));
      token = res.body.nextPaginationToken;
      pages++;
    } while (token && pages < 20);
    return { ids, pages };
  }

  /** What the log holds matching `keep`, newest first. */
  const expected = (keep: (d: LoggedDelivery) => boolean) =>
    log
      .filter(keep)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1))
      .map((d) => d.id);

  beforeAll(async () => {
    harness = await startWebhookHarness();
    tenant = await harness.tenant();
    owner = projectOwner(tenant);
    endpoint = await createEndpoint(harness, owner);
    const statuses = ['success', 'failed', 'success', 'retrying', 'failed', 'created', 'failed'] as const;
    const types = ['generation.completed', 'generation.failed', 'asset.download.completed'];
    const rows: LoggedDelivery[] = Array.from({ length: 21 }, (_, i) => ({
      status: statuses[i % statuses.length],
      type: types[i % types.length],
      createdAt: at(i),
    }));
    // Two deliveries of one millisecond: the cursor's id breaks the tie.
    rows.push({ status: 'failed', type: 'generation.failed', createdAt: at(10) });
    const ids = await logDeliveries(harness, endpoint.id, rows);
    rows.forEach((row, i) => log.push({ ...row, id: ids[i] }));
  });
  afterAll(() => harness?.close());

  it('documents the filters and their answers in /v1/openapi.json', async () => {
    const doc = (await harness.request('GET', '/v1/openapi.json')).body;
    for (const prefix of ['/v1/projects/{projectId}', '/v1/teams/{teamId}']) {
      const list = doc.paths[`${prefix}/webhook-endpoints/{webhookEndpointId}/events`].get;
      const params = Object.fromEntries(
        list.parameters.map((p: { name: string; schema: object }) => [p.name, p.schema]),
      );
      expect(params).toMatchObject({
        status: { enum: ['created', 'retrying', 'success', 'failed'] },
        type: { enum: expect.arrayContaining(['generation.completed', 'team.credit.threshold.crossed']) },
        createdAfter: { type: 'string', format: 'date-time' },
        createdBefore: { type: 'string', format: 'date-time' },
        paginationToken: { type: 'string' },
      });
    }
    const documented = openApiResponseChecker(doc);
    const ok = await list('status=failed&pageSize=2');
    expect(ok.body.items).toHaveLength(2);
    expect(documented('GET', eventsPath(), 200, ok.body)).toEqual([]);
    const bad = await list('status=done');
    expect(documented('GET', eventsPath(), 400, bad.body)).toEqual([]);
  });

  it('filters by status, across pages, newest first', async () => {
    const failed = await allPages('status=failed');
    expect(failed.ids).toEqual(expected((d) => d.status === 'failed'));
    expect(failed.ids.length).toBe(10);
    expect(failed.pages).toBe(5);
    const res = await list('status=failed');
    expect(res.body.items.every((i: { status: string }) => i.status === 'failed')).toBe(true);
    expect((await allPages('status=created')).ids).toEqual(expected((d) => d.status === 'created'));
  });

  it('filters by type and by a half-open creation window [createdAfter, createdBefore)', async () => {
    expect((await allPages('type=generation.failed')).ids).toEqual(
      expected((d) => d.type === 'generation.failed'),
    );
    const from = at(5).toISOString();
    const to = at(12).toISOString();
    const window = await allPages(`createdAfter=${from}&createdBefore=${to}`);
    // at(5) is in (inclusive), at(12) is out (exclusive); at(10) twice.
    expect(window.ids).toEqual(expected((d) => d.createdAt >= at(5) && d.createdAt < at(12)));
    expect(window.ids.length).toBe(8);
    const all = await allPages(
      `status=failed&type=generation.failed&createdAfter=${encodeURIComponent(from)}&createdBefore=${encodeURIComponent(to)}`,
    );
    expect(all.ids).toEqual(
      expected(
        (d) =>
          d.status === 'failed' &&
          d.type === 'generation.failed' &&
          d.createdAt >= at(5) &&
          d.createdAt < at(12),
      ),
    );
    expect(all.ids.length).toBeGreaterThan(0);
    // Unfiltered: the whole log, as before.
    expect((await allPages('')).ids).toEqual(expected(() => true));
  });

  it('refuses a token with filters other than those of the page that issued it (400 naming paginationToken)', async () => {
    const first = await list('status=failed&pageSize=2');
    const token = encodeURIComponent(first.body.nextPaginationToken);
    const unfiltered = encodeURIComponent((await list('pageSize=2')).body.nextPaginationToken);
    for (const query of [
      `status=success&pageSize=2&paginationToken=${token}`,
      `pageSize=2&paginationToken=${token}`,
      `status=failed&type=generation.failed&pageSize=2&paginationToken=${token}`,
      `status=failed&pageSize=2&paginationToken=${unfiltered}`,
    ]) {
      const res = await list(query);
      expect({ query, status: res.status, fields: Object.keys(res.body.infos?.fields ?? {}) }).toEqual({
        query,
        status: 400,
        fields: ['paginationToken'],
      });
    }
    // The same filters: the next page, and the page size may change.
    expect((await list(`status=failed&pageSize=3&paginationToken=${token}`)).status).toBe(200);
  });

  it('400 naming the parameter for a bad filter', async () => {
    for (const [query, field] of [
      ['status=done', 'status'],
      ['status=', 'status'],
      ['type=generation.finished', 'type'],
      ['type=team.credit.threshold.crossed', 'type'],
      ['createdAfter=yesterday', 'createdAfter'],
      ['createdBefore=2026-13-01T00:00:00Z', 'createdBefore'],
      ['createdAfter=%2B275760-09-13T00:00:00.000Z', 'createdAfter'],
      [`createdAfter=${at(5).toISOString()}&createdBefore=${at(5).toISOString()}`, 'createdBefore'],
      [`createdAfter=${at(6).toISOString()}&createdBefore=${at(5).toISOString()}`, 'createdBefore'],
    ]) {
      const res = await list(query);
      expect({ query, status: res.status, fields: Object.keys(res.body.infos?.fields ?? {}) }).toEqual({
        query,
        status: 400,
        fields: [field],
      });
    }
  });

  it("a team endpoint filters by team types; another tenant's endpoint is 404 whatever the filters", async () => {
    const team = teamOwner(tenant);
    const teamEndpoint = await createEndpoint(harness, team);
    const path = `${endpointsPath(team)}/${teamEndpoint.id}/events`;
    const ok = await harness.request('GET', `${path}?type=team.credit.threshold.crossed&status=failed`, {
      auth: team.auth,
    });
    expect(ok).toMatchObject({ status: 200, body: { items: [] } });
    const wrongKind = await harness.request('GET', `${path}?type=generation.completed`, { auth: team.auth });
    expect(wrongKind.status).toBe(400);

    const stranger = await harness.tenant();
    expect((await list('status=failed', stranger.auth.projectAdmin)).status).toBe(404);
    const theirs = projectOwner(stranger);
    const res = await harness.request('GET', `${endpointsPath(theirs)}/${endpoint.id}/events?status=failed`, {
      auth: theirs.auth,
    });
    expect(res.status).toBe(404);
  });
});
