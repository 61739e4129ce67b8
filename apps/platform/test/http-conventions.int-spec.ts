import { ID_PARAMS, idMessage, idPattern, MAX_JSON_DEPTH, type IdParamName } from '@genasset/http';
import { SERVICES } from '@genasset/service-catalog';
import { answerBeforeBody, startServiceHarness, type ServiceHarness, type Tenant } from '@genasset/testing';

interface Operation {
  method: string;
  path: string;
  pathParams: { name: string; schema?: { pattern?: string } }[];
  query: string[];
  hasBody: boolean;
}

/** A well-formed id that names nothing. */
const unknownId = (name: IdParamName) => `${ID_PARAMS[name].prefix}_01JD6Z3Q9V8K2M4N6P8R0T2V4X`;

/**
 * The HTTP rules of issue "[1/5]" asserted on every route of the platform at
 * once (every service in one process, as `npm start` runs them), driven by its
 * OpenAPI document so a route added later is covered without touching this
 * file: malformed ids, `projectId`, numeric query parameters, request bodies,
 * and credentials checked before a body is read.
 */
describe('HTTP conventions on every route', () => {
  let h: ServiceHarness;
  let a: Tenant;
  let b: Tenant;
  let operations: Operation[];

  beforeAll(async () => {
    h = await startServiceHarness({ services: SERVICES, transport: 'in-process' });
    [a, b] = await Promise.all([h.tenant(), h.tenant()]);
    const doc = (await h.request('GET', '/v1/openapi.json')).body as {
      paths: Record<string, Record<string, { parameters?: { name: string; in: string; schema?: object }[]; requestBody?: object }>>;
    };
    operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        pathParams: (op.parameters ?? []).filter((p) => p.in === 'path'),
        query: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
        hasBody: op.requestBody !== undefined,
      })),
    );
  }, 120_000);
  afterAll(() => h?.close());

  /** The operation's path with `bad` in place of `param` and well-formed ids (tenant a's owners) elsewhere. */
  const urlOf = (op: Operation, bad?: { param: string; value: string }) =>
    op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      if (name === bad?.param) return bad.value;
      if (name === 'projectId') return a.projectId;
      if (name === 'teamId') return a.teamId;
      return unknownId(name as IdParamName);
    });

  describe('ids in the path', () => {
    it('every id parameter is documented with the pattern of its kind', () => {
      const params = operations.flatMap((op) => op.pathParams.map((p) => ({ at: `${op.method} ${op.path}`, ...p })));
      expect(params.length).toBeGreaterThan(50);
      for (const p of params) {
        expect({ at: p.at, name: p.name, known: p.name in ID_PARAMS }).toEqual({ at: p.at, name: p.name, known: true });
        expect({ at: p.at, pattern: p.schema?.pattern }).toEqual({ at: p.at, pattern: idPattern(p.name as IdParamName).source });
      }
    });

    it('a malformed id is a 400 naming the parameter on every route, whatever the body', async () => {
      for (const op of operations) {
        for (const { name } of op.pathParams) {
          const res = await h.request(op.method, urlOf(op, { param: name, value: 'notanid' }), {
            auth: a.auth.teamAdmin,
            body: op.hasBody ? {} : undefined,
          });
          expect({ route: `${op.method} ${op.path}`, name, status: res.status, fields: res.body?.infos?.fields }).toEqual({
            route: `${op.method} ${op.path}`,
            name,
            status: 400,
            fields: { [name]: [idMessage(name as IdParamName)] },
          });
        }
      }
    });

    it('a well-formed unknown id is still a 404', async () => {
      for (const path of [`/v1/jobs/${unknownId('jobId')}`, `/v1/models/${unknownId('modelId')}`, `/v1/uploads/${unknownId('uploadId')}`]) {
        expect({ path, status: (await h.request('GET', path, { auth: a.auth.projectAdmin })).status }).toEqual({ path, status: 404 });
      }
    });
  });

  describe('projectId', () => {
    const LISTS = ['/v1/assets', '/v1/collections', '/v1/models', '/v1/jobs'];
    const status = async (path: string, auth: string) => (await h.request('GET', path, { auth })).status;

    it.each(LISTS)('%s: the same answers for project and team keys', async (list) => {
      const teamWide = list === '/v1/jobs' ? 200 : 400;
      const cases: [string, string, number][] = [
        ['project key, none', a.auth.projectAdmin, 200],
        ['project key, its own', `${a.auth.projectAdmin}|${a.projectId}`, 200],
        ['project key, another team’s', `${a.auth.projectAdmin}|${b.projectId}`, 404],
        ['project key, malformed', `${a.auth.projectAdmin}|notaproject`, 400],
        ['team key, none', a.auth.teamAdmin, teamWide],
        ['team key, its team’s', `${a.auth.teamAdmin}|${a.projectId}`, 200],
        ['team key, another team’s', `${a.auth.teamAdmin}|${b.projectId}`, 404],
        ['team key, malformed', `${a.auth.teamAdmin}|notaproject`, 400],
      ];
      for (const [what, keyAndProject, expected] of cases) {
        const [auth, projectId] = keyAndProject.split('|');
        const path = projectId === undefined ? list : `${list}?projectId=${projectId}`;
        expect({ what, status: await status(path, auth) }).toEqual({ what, status: expected });
      }
      const malformed = await h.request('GET', `${list}?projectId=notaproject`, { auth: a.auth.teamAdmin });
      expect(malformed.body.infos.fields).toEqual({ projectId: [idMessage('projectId')] });
      if (teamWide === 400) {
        const none = await h.request('GET', list, { auth: a.auth.teamAdmin });
        expect(none.body).toMatchObject({ apiError: 'project_required', infos: { fields: { projectId: [expect.any(String)] } } });
      }
    });

    it('routes that name their owner in the path refuse it as an unknown parameter', async () => {
      for (const path of [
        `/v1/teams/${a.teamId}/webhook-endpoints`,
        `/v1/projects/${a.projectId}/webhook-endpoints`,
        `/v1/teams/${a.teamId}/usage`,
        `/v1/teams/${a.teamId}/credit-alerts`,
        `/v1/projects/${a.projectId}/webhook-endpoints/${unknownId('webhookEndpointId')}/events`,
      ]) {
        const res = await h.request('GET', `${path}?projectId=${a.projectId}`, { auth: a.auth.teamAdmin });
        expect({ path, status: res.status, fields: res.body.infos?.fields }).toEqual({
          path,
          status: 400,
          fields: { projectId: ['property projectId should not exist'] },
        });
      }
    });
  });

  it('numeric query parameters are plain decimal integers on every route that takes one', async () => {
    const paged = operations.filter((op) => op.method === 'GET' && op.query.includes('pageSize'));
    expect(paged.length).toBeGreaterThanOrEqual(6);
    for (const op of paged) {
      for (const text of ['1e2', '0x10', '%205']) {
        const path = `${urlOf(op)}?pageSize=${text}`;
        const res = await h.request('GET', path, { auth: a.auth.teamAdmin });
        expect({ path, status: res.status, fields: res.body.infos?.fields }).toEqual({
          path,
          status: 400,
          fields: { pageSize: ['pageSize must be a decimal integer (digits only)'] },
        });
      }
    }
    expect((await h.request('GET', '/v1/collections?pageSize=5', { auth: a.auth.projectAdmin })).status).toBe(200);
  });

  describe('request bodies', () => {
    const collections = async () =>
      (await h.request('GET', '/v1/collections', { auth: a.auth.projectAdmin })).body.collections as { name: string }[];

    it('an empty body with Content-Type: application/json is no body (DELETE, body-less GET)', async () => {
      const created = await h.request('POST', '/v1/collections', { auth: a.auth.projectAdmin, body: { name: 'to delete' } });
      const json = { 'content-type': 'application/json' };
      const del = await h.request('DELETE', `/v1/collections/${created.body.collection.id}`, { auth: a.auth.projectAdmin, headers: json });
      expect([del.status, del.body]).toEqual([200, {}]);
      expect((await h.request('GET', '/v1/collections', { auth: a.auth.projectAdmin, headers: json })).status).toBe(200);
    });

    it('a form post (curl -d) is 415 naming application/json, and creates nothing', async () => {
      const before = await collections();
      const res = await h.request('POST', '/v1/collections', {
        auth: a.auth.projectAdmin,
        body: 'name=foo',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(res.status).toBe(415);
      expect(res.body).toMatchObject({
        apiError: 'unsupported_media_type',
        infos: { expected: 'application/json', received: 'application/x-www-form-urlencoded' },
      });
      expect(await collections()).toEqual(before);
    });

    it('a __proto__ key is named as refused', async () => {
      const res = await h.request('POST', '/v1/collections', { auth: a.auth.projectAdmin, body: '{"name":"x","__proto__":{"a":1}}' });
      expect(res.status).toBe(400);
      // A computed key: `{ __proto__: … }` in a literal would set the prototype instead.
      expect(res.body.infos.fields).toEqual({ ['__proto__']: ['property __proto__ is refused: the key __proto__ is never accepted'] });
    });

    it(`nesting beyond ${MAX_JSON_DEPTH} levels is a 400 on every body route (5,000 levels was a 500)`, async () => {
      const deep = `{"x":${'['.repeat(5000)}${']'.repeat(5000)}}`;
      const withBody = operations.filter((op) => op.hasBody);
      expect(withBody.length).toBeGreaterThan(40);
      for (const op of withBody) {
        const res = await h.request(op.method, urlOf(op), { auth: a.auth.projectAdmin, body: deep });
        expect({ route: `${op.method} ${op.path}`, status: res.status, infos: res.body?.infos }).toEqual({
          route: `${op.method} ${op.path}`,
          status: 400,
          infos: { maxDepth: MAX_JSON_DEPTH },
        });
      }
    });
  });

  describe('credentials before bodies', () => {
    const MiB = 1024 * 1024;
    it.each([
      ['POST /v1/generate/pixelate (64 MiB limit)', '/v1/generate/pixelate'],
      ['POST /v1/assets (40 MiB limit)', '/v1/assets'],
    ])('%s: 401 while a 39 MiB body is still unsent, without and with wrong credentials', async (_what, path) => {
      for (const authorization of [undefined, `Basic ${Buffer.from('key_01JD6Z3Q9V8K2M4N6P8R0T2V4X:sk_wrong').toString('base64')}`]) {
        const answer = await answerBeforeBody(h.url, {
          method: 'POST',
          path,
          headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
          declaredBytes: 39 * MiB,
          sentBytes: 64 * 1024,
          timeoutMs: 5000,
        });
        expect(answer?.status).toBe(401);
        expect(JSON.parse(answer!.body)).toMatchObject({ apiError: 'unauthorized' });
      }
    });

    it('public-auth-token still reads public assets', async () => {
      expect((await h.request('GET', '/v1/assets/public', { auth: 'public-auth-token' })).status).toBe(200);
    });
  });
});
