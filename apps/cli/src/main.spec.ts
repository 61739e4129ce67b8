import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '@genasset/testing';

const REPO_ROOT = resolve(__dirname, '../../..');
/** Modules a command that talks HTTP has no use for; loading them is most of a slow start. */
const HEAVY = /[/\\](@nestjs|@prisma|kafkajs|@electric-sql|class-validator)[/\\]|[/\\]libs[/\\]services[/\\]/;

/**
 * Runs the CLI as `npm run -s cli` does (node + SWC register), with a preload
 * that reports on exit which heavy modules the command loaded.
 */
function runCli(preload: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  return new Promise<{ code: number; stdout: string; stderr: string; heavy: string[] }>((done) => {
    execFile(
      process.execPath,
      ['-r', '@swc-node/register', '-r', preload, join(REPO_ROOT, 'apps/cli/src/main.ts'), ...args],
      { cwd: REPO_ROOT, env: { ...process.env, GENASSET_URL: '', ADMIN_TOKEN: '', ...env } },
      (error, stdout, stderr) => {
        const marker = stderr.lastIndexOf('\nHEAVY ');
        const heavy = marker < 0 ? ['(no report)'] : (JSON.parse(stderr.slice(marker + 7)) as string[]);
        done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr: marker < 0 ? stderr : stderr.slice(0, marker + 1), heavy });
      },
    );
  });
}

describe('cli start and errors', () => {
  let dir: string;
  let preload: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cli-start-'));
    preload = join(dir, 'report-modules.js');
    writeFileSync(
      preload,
      `process.on('exit', () => process.stderr.write('\\nHEAVY ' + JSON.stringify(Object.keys(require.cache).filter((m) => ${HEAVY}.test(m)))));\n`,
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('prints its help without loading Nest, Prisma, Kafka or the services', async () => {
    const run = await runCli(preload, ['--help']);
    expect(run.stdout).toContain('Usage: genasset');
    expect(run.heavy).toEqual([]);
  }, 30_000);

  it('names the URL it could not reach and what to do, without loading Nest or Prisma for an admin call', async () => {
    const port = await freePort();
    const run = await runCli(preload, ['admin', 'create-team', '--name', 'Acme'], {
      GENASSET_URL: `http://127.0.0.1:${port}`,
      ADMIN_TOKEN: 'x'.repeat(32),
    });
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe(
      `error: cannot reach http://127.0.0.1:${port} (ECONNREFUSED): is the server running? ` +
        'Start it with `npm start`, or pass --url / set GENASSET_URL to where it runs',
    );
    expect(run.heavy).toEqual([]);
  }, 30_000);

  it('says the admin token was refused and where the right one is, on a 401', async () => {
    const server: Server = createServer((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"Invalid admin token","apiError":"unauthorized"}');
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const run = await runCli(preload, ['admin', 'revoke-api-key', '--key', 'key_1', '--url', url, '--admin-token', 'wrong-token-wrong-token']);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`error: ${url} refused the admin token (401)`);
      expect(run.stderr).toContain('--admin-token or ADMIN_TOKEN');
      expect(run.stderr).toContain('"adminToken" in $DATA_DIR/bootstrap.json');
      expect(run.stderr).not.toContain('wrong-token');
    } finally {
      server.close();
    }
  }, 30_000);
});
