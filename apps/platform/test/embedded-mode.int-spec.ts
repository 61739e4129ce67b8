import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, openApiResponseChecker, spawnTsProcess, waitFor, type SpawnedProcess } from '@genasset/testing';

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
  const basic = (key: string, secret: string) => `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;
  const embeddedEnv = (port: number) => ({
    PORT: String(port),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
    KAFKA_BROKERS: '',
    S3_ENDPOINT: '',
    S3_BUCKET: '',
    ADMIN_TOKEN: '',
  });

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'genasset-embedded-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    platform = spawnTsProcess('apps/platform/src/main.ts', embeddedEnv(port));
    await waitFor(() => fetch(`${base}/healthz`).then((r) => r.ok), { timeoutMs: 90_000, intervalMs: 200, what: 'platform /healthz' });
    await waitFor(() => statSync(join(dataDir, 'bootstrap.json'), { throwIfNoEntry: false }), { timeoutMs: 10_000, what: 'bootstrap.json' });
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
    expect(await ready.json()).toEqual({ status: 'ok', checks: { database: 'ok', broker: 'ok' } });
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

  it('keeps its data across a restart and does not provision twice', async () => {
    const before = bootstrap();
    await platform.kill('SIGTERM');
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    platform = spawnTsProcess('apps/platform/src/main.ts', embeddedEnv(port));
    await waitFor(() => fetch(`${base}/healthz`).then((r) => r.ok), { timeoutMs: 90_000, intervalMs: 200, what: 'restarted platform' });
    expect(bootstrap()).toEqual(before);
    const me = await fetch(`${base}/v1/me`, { headers: { authorization: basic(before.apiKey, before.apiSecret) } });
    expect(me.status).toBe(200);
  }, 120_000);
});
