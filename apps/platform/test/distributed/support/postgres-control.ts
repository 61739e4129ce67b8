import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * The test PostgreSQL's own pg_ctl, data directory and log, exported by `npm test` when it runs
 * PostgreSQL as a local process (scripts/lib/services.mjs); absent with containers or your own server.
 */
export function postgresControl(env: NodeJS.ProcessEnv = process.env) {
  const pgCtl = env.TEST_PG_CTL;
  const data = env.TEST_PG_DATA;
  if (!pgCtl || !data) return undefined;
  const log = env.TEST_PG_LOG;
  const runAs = env.TEST_PG_USER;
  const pgCtlRun = async (args: string[]) => {
    // PostgreSQL refuses to run as root: npm test started it as `postgres`, so it restarts as that user too.
    const [command, argv] = runAs ? ['runuser', ['-u', runAs, '--', pgCtl, ...args]] : [pgCtl, args];
    await promisify(execFile)(command, argv, { timeout: 90_000 });
  };
  let options = '';
  return {
    /** Stops the server (fast: every session is terminated, as in a failover) and waits until it is down. */
    async stop() {
      // `pg_ctl start` does not reuse the last options (port, sockets) as `restart` does: keep them.
      // postmaster.opts holds `<postgres> "-D" "<data>" "-p" "<port>" ...`, each argument quoted.
      const args = [...readFileSync(join(data, 'postmaster.opts'), 'utf8').matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]);
      const dataAt = args.indexOf('-D');
      if (dataAt >= 0) args.splice(dataAt, 2);
      options = args.join(' ');
      await pgCtlRun(['stop', '-D', data, '-m', 'fast', '-w', '-t', '60']);
    },
    /** Starts it again on the same port, sockets and data, and waits until it accepts connections. */
    start: () => pgCtlRun(['start', '-D', data, '-w', '-t', '60', '-o', options, ...(log ? ['-l', log] : [])]),
  };
}
