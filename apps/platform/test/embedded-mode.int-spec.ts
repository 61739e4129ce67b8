import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_VERSION, openApiFingerprint } from '@genasset/http';
import { freePort, openApiResponseChecker, spawnTsProcess, waitFor, type SpawnedProcess, EMBEDDED_PLATFORM_ENV } from '@genasset/testing';

/**
 * What `npm start` does, as a user sees it: the platform as its own OS process
 * with no DATABASE_URL, KAFKA_BROKERS or S3_* (embedded mode), on an empty data
 * directory. It must come up, provision a tenant into bootstrap.json, and serve
 * authenticated routes with those credentials.
 */
describe('platform in embedded mode', () => {
  let dataDir: string;
  let platform: SpawnedProcess;
  let base: string;
  let startOutput: string;
  const basic = (key: string, secret: string) => `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;
  // As `npm start` runs it: LOG_LEVEL unset (info).
  const embeddedEnv = (port: number) => ({
    PORT: String(port),
    DATA_DIR: dataDir,
    LOG_LEVEL: '',
    ...EMBEDDED_PLATFORM_ENV,
  });

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'genasset-embedded-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    platform = spawnTsProcess('apps/platform/src/main.ts', embeddedEnv(port));
    await waitFor(() => fetch(`${base}/healthz`).then((r) => r.ok), { timeoutMs: 90_000, intervalMs: 200, what: 'platform /healthz' });
    await waitFor(() => statSync(join(dataDir, 'bootstrap.json'), { throwIfNoEntry: false }), { timeoutMs: 10_000, what: 'bootstrap.json' });
    // The banner comes last, once the server listens and bootstrap.json is written (its test says when it is missing).
    await platform.waitForLine(/^\s+curl -u /, 10_000).catch(() => undefined);
    startOutput = platform.output();
  }, 120_000);

  afterAll(async () => {
    await platform?.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  const bootstrap = () =>
    JSON.parse(readFileSync(join(dataDir, 'bootstrap.json'), 'utf8')) as {
      adminToken: string;
      teamId: string;
      projectId: string;
      apiKey: string;
      apiSecret: string;
    };

  it('writes bootstrap.json with a team, project, admin key and admin token, readable by its owner only', () => {
    const b = bootstrap();
    expect(b.teamId).toMatch(/^team_/);
    expect(b.projectId).toMatch(/^proj_/);
    expect(b.apiKey).toMatch(/^key_/);
    expect(b.apiSecret).toMatch(/^sk_/);
    expect(b.adminToken.length).toBeGreaterThanOrEqual(16);
    expect(statSync(join(dataDir, 'bootstrap.json')).mode & 0o077).toBe(0);
  });

  it('starts quietly and ends with a banner: the URL, the reference pages, bootstrap.json and a first call to copy', async () => {
    const lines = startOutput.trimEnd().split('\n');
    const bannerAt = lines.findIndex((l) => l.startsWith('genasset is ready'));
    expect(bannerAt).toBeGreaterThan(0);
    // Before it, only the log lines an operator acts on (no module or route listing)...
    const logLines = lines.slice(0, bannerAt).filter((l) => l.trim());
    expect(logLines.length).toBeLessThanOrEqual(5);
    for (const line of logLines) expect(JSON.parse(line)).toMatchObject({ service: 'platform' });
    expect(startOutput).not.toContain('Mapped {');
    // ...and the banner is the end of the start.
    const banner = lines.slice(bannerAt).join('\n');
    const file = join(dataDir, 'bootstrap.json');
    const port = new URL(base).port;
    expect(banner).toContain(`http://localhost:${port}/v1`);
    expect(banner).toContain(`http://localhost:${port}/docs`);
    expect(banner).toContain(`http://localhost:${port}/admin/docs`);
    expect(banner).toContain(file);
    expect(banner).not.toContain(bootstrap().apiSecret);
    expect(banner).not.toContain(bootstrap().adminToken);
    expect(banner).toContain(`http://localhost:${port}/console`);
    // The first call: its command substitution, run by a POSIX shell as pasted, yields the bootstrap key.
    const call = /^\s+curl -u "\$\((.+)\)" (\S+)$/.exec(lines.find((l) => /^\s+curl -u /.test(l))!);
    expect(call).not.toBeNull();
    const { stdout: credentials } = await promisify(execFile)('sh', ['-c', call![1]]);
    expect(credentials.trim()).toBe(`${bootstrap().apiKey}:${bootstrap().apiSecret}`);
    expect(call![2]).toBe(`http://localhost:${port}/v1/me`);
    const [key, secret] = credentials.trim().split(':');
    expect((await fetch(`${base}/v1/me`, { headers: { authorization: basic(key, secret) } })).status).toBe(200);
  });

  it('answers GET / with an index of where things are, and sends a browser to the reference page', async () => {
    const json = await fetch(`${base}/`);
    expect(json.status).toBe(200);
    expect(await json.json()).toEqual({
      name: 'genasset platform',
      version: API_VERSION.version,
      links: {
        docs: '/docs',
        openapi: '/v1/openapi.json',
        adminDocs: '/admin/docs',
        adminOpenapi: '/admin/v1/openapi.json',
        health: '/healthz',
      },
    });
    const browser = await fetch(`${base}/`, { headers: { accept: 'text/html,application/xhtml+xml' }, redirect: 'manual' });
    expect(browser.status).toBe(302);
    expect(browser.headers.get('location')).toBe('/docs');
  });

  it('serves the admin API its own OpenAPI document and page, and keeps it out of the public one', async () => {
    const publicDoc = (await (await fetch(`${base}/v1/openapi.json`)).json()) as { paths: object };
    expect(Object.keys(publicDoc.paths).filter((p) => p.startsWith('/admin'))).toEqual([]);
    const adminDoc = (await (await fetch(`${base}/admin/v1/openapi.json`)).json()) as {
      info: { version: string };
      paths: Record<string, object>;
      components: { securitySchemes: object; schemas: object };
      security: object;
    };
    expect(Object.keys(adminDoc.paths).sort()).toEqual([
      '/admin/v1/api-keys',
      '/admin/v1/api-keys/{keyId}',
      '/admin/v1/teams',
      '/admin/v1/teams/{teamId}/credit-plan',
      '/admin/v1/teams/{teamId}/projects',
    ]);
    expect(adminDoc.security).toEqual([{ AdminToken: [] }]);
    expect(adminDoc.components.securitySchemes).toEqual({ AdminToken: expect.objectContaining({ type: 'http', scheme: 'bearer' }) });
    expect(Object.keys(adminDoc.components.schemas)).not.toContain('MeResponse');
    expect(adminDoc.info.version).toBe(API_VERSION.version);
    const page = await fetch(`${base}/admin/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    // The admin API answers as its document says.
    const check = openApiResponseChecker(adminDoc as Parameters<typeof openApiResponseChecker>[0]);
    const admin = { authorization: `Bearer ${bootstrap().adminToken}`, 'content-type': 'application/json' };
    const team = await fetch(`${base}/admin/v1/teams`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'Documented' }) });
    const { team: created } = (await team.clone().json()) as { team: { id: string } };
    expect(check('POST', '/admin/v1/teams', team.status, await team.json())).toEqual([]);
    const key = await fetch(`${base}/admin/v1/api-keys`, { method: 'POST', headers: admin, body: JSON.stringify({ teamId: created.id, role: 'member' }) });
    expect(check('POST', '/admin/v1/api-keys', key.status, await key.json())).toEqual([]);
    const refused = await fetch(`${base}/admin/v1/teams`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"x"}' });
    expect(check('POST', '/admin/v1/teams', refused.status, await refused.json())).toEqual([]);
  });

  it('states the recorded API version, which the documents served still match', async () => {
    const publicDoc = (await (await fetch(`${base}/v1/openapi.json`)).json()) as Parameters<typeof openApiFingerprint>[0];
    const adminDoc = (await (await fetch(`${base}/admin/v1/openapi.json`)).json()) as Parameters<typeof openApiFingerprint>[0];
    expect(publicDoc.info.version).toBe(API_VERSION.version);
    const fingerprint = openApiFingerprint(publicDoc, adminDoc);
    if (fingerprint !== API_VERSION.fingerprint) {
      throw new Error(
        'The API changed (its OpenAPI documents no longer match the recorded fingerprint). Give it a new version: in ' +
          `libs/http/src/openapi/api-version.ts set version: '${new Date().toISOString()}', fingerprint: '${fingerprint}'`,
      );
    }
  });

  it('authenticates the bootstrap key on a /v1 route and refuses a wrong secret with 401', async () => {
    const b = bootstrap();
    const ok = await fetch(`${base}/v1/me`, { headers: { authorization: basic(b.apiKey, b.apiSecret) } });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({
      apiKey: { id: b.apiKey, teamId: b.teamId, projectId: b.projectId, role: 'admin', scopes: ['team.webhooks.manage'] },
    });
    const wrong = await fetch(`${base}/v1/me`, { headers: { authorization: basic(b.apiKey, `${b.apiSecret}x`) } });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ apiError: 'unauthorized', error: expect.any(String) });
    const none = await fetch(`${base}/v1/me`);
    expect(none.status).toBe(401);
  });

  it('serves the OpenAPI document with an ISO 8601 UTC version, the reference page and readiness', async () => {
    const doc = (await (await fetch(`${base}/v1/openapi.json`)).json()) as { info: { version: string }; paths: object };
    expect(doc.info.version).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/);
    expect(Object.keys(doc.paths)).toContain('/v1/me');
    // /v1/me answers as documented, with a key and without one.
    const check = openApiResponseChecker(doc as Parameters<typeof openApiResponseChecker>[0]);
    const b = bootstrap();
    const me = await fetch(`${base}/v1/me`, { headers: { authorization: basic(b.apiKey, b.apiSecret) } });
    expect(check('GET', '/v1/me', me.status, await me.json())).toEqual([]);
    const anonymous = await fetch(`${base}/v1/me`);
    expect(check('GET', '/v1/me', anonymous.status, await anonymous.json())).toEqual([]);
    const docs = await fetch(`${base}/docs`);
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-type')).toContain('text/html');
    const ready = await fetch(`${base}/readyz`);
    // Embedded PGlite loads pgvector: search answers similarity through its HNSW index, and says so.
    expect(await ready.json()).toEqual({
      status: 'ok',
      checks: { database: 'ok', broker: 'ok', search: 'ok' },
      details: { search: expect.stringMatching(/^pgvector hnsw/) },
    });
  });

  it('provisions tenants through the admin API with the bootstrap admin token', async () => {
    const b = bootstrap();
    const admin = { authorization: `Bearer ${b.adminToken}`, 'content-type': 'application/json' };
    const team = await fetch(`${base}/admin/v1/teams`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'Second' }) });
    expect(team.status).toBe(200);
    const { team: created } = (await team.json()) as { team: { id: string } };
    const key = await fetch(`${base}/admin/v1/api-keys`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ teamId: created.id, role: 'member' }),
    });
    const issued = (await key.json()) as { apiKey: string; apiSecret: string };
    const me = await fetch(`${base}/v1/me`, { headers: { authorization: basic(issued.apiKey, issued.apiSecret) } });
    expect(((await me.json()) as { apiKey: { teamId: string; projectId: null } }).apiKey).toMatchObject({ teamId: created.id, projectId: null });

    const noToken = await fetch(`${base}/admin/v1/teams`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"x"}' });
    expect(noToken.status).toBe(401);
    const badBody = await fetch(`${base}/admin/v1/teams`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 7 }) });
    expect(badBody.status).toBe(400);
    expect(JSON.stringify(await badBody.json())).toContain('name');
  });

  it('revokes an API key through the admin API: refused from then on, revoking again keeps the time', async () => {
    const b = bootstrap();
    const admin = { authorization: `Bearer ${b.adminToken}` };
    const team = (await (
      await fetch(`${base}/admin/v1/teams`, {
        method: 'POST',
        headers: { ...admin, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Revoked' }),
      })
    ).json()) as { team: { id: string } };
    const issued = (await (
      await fetch(`${base}/admin/v1/api-keys`, {
        method: 'POST',
        headers: { ...admin, 'content-type': 'application/json' },
        body: JSON.stringify({ teamId: team.team.id, role: 'admin' }),
      })
    ).json()) as { apiKey: string; apiSecret: string };
    const revoke = () => fetch(`${base}/admin/v1/api-keys/${issued.apiKey}`, { method: 'DELETE', headers: admin });

    const first = await revoke();
    expect(first.status).toBe(200);
    const { apiKey } = (await first.json()) as { apiKey: { id: string; revokedAt: string } };
    expect(apiKey.id).toBe(issued.apiKey);
    expect(apiKey.revokedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const me = await fetch(`${base}/v1/me`, { headers: { authorization: basic(issued.apiKey, issued.apiSecret) } });
    expect(me.status).toBe(401);
    expect(((await (await revoke()).json()) as { apiKey: { revokedAt: string } }).apiKey.revokedAt).toBe(apiKey.revokedAt);

    const unknown = await fetch(`${base}/admin/v1/api-keys/key_00000000000000000000000000`, { method: 'DELETE', headers: admin });
    expect(unknown.status).toBe(404);
    const noToken = await fetch(`${base}/admin/v1/api-keys/${issued.apiKey}`, { method: 'DELETE' });
    expect(noToken.status).toBe(401);
  });

  it('provisions tenants with the admin CLI, printing JSON', async () => {
    const b = bootstrap();
    const cli = (...args: string[]) =>
      promisify(execFile)(process.execPath, ['-r', '@swc-node/register', 'apps/cli/src/main.ts', ...args], {
        cwd: join(__dirname, '../../..'),
        env: { ...process.env, GENASSET_URL: base, ADMIN_TOKEN: b.adminToken },
      }).then(({ stdout }) => JSON.parse(stdout) as Record<string, { id: string }> & { apiKey: string; apiSecret: string });
    const { team } = await cli('admin', 'create-team', '--name', 'CLI team', '--json');
    expect(team.id).toMatch(/^team_/);
    const { project } = await cli('admin', 'create-project', '--team', team.id, '--name', 'CLI project', '--json');
    expect(project.id).toMatch(/^proj_/);
    const issued = await cli('admin', 'create-api-key', '--team', team.id, '--project', project.id, '--role', 'admin', '--json');
    const me = await fetch(`${base}/v1/me`, { headers: { authorization: basic(issued.apiKey, issued.apiSecret) } });
    expect(((await me.json()) as { apiKey: object }).apiKey).toMatchObject({ teamId: team.id, projectId: project.id, role: 'admin' });
    const { apiKey } = await cli('admin', 'revoke-api-key', '--key', issued.apiKey, '--json');
    expect(apiKey).toMatchObject({ id: issued.apiKey });
  }, 60_000);

  it('keeps its data and its API version across a restart and does not provision twice', async () => {
    const before = bootstrap();
    type Document = Parameters<typeof openApiFingerprint>[0];
    const served = async () => (await (await fetch(`${base}/v1/openapi.json`)).json()) as Document;
    const documentBefore = await served();
    await platform.kill('SIGTERM');
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    platform = spawnTsProcess('apps/platform/src/main.ts', embeddedEnv(port));
    await waitFor(() => fetch(`${base}/healthz`).then((r) => r.ok), { timeoutMs: 90_000, intervalMs: 200, what: 'restarted platform' });
    expect(bootstrap()).toEqual(before);
    // The same code states the same version (and serves the same document) at every start.
    const documentAfter = await served();
    expect(documentAfter.info.version).toBe(documentBefore.info.version);
    expect(openApiFingerprint(documentAfter)).toBe(openApiFingerprint(documentBefore));
    const me = await fetch(`${base}/v1/me`, { headers: { authorization: basic(before.apiKey, before.apiSecret) } });
    expect(me.status).toBe(200);
  }, 120_000);
});
