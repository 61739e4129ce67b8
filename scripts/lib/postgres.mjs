import { execFileSync } from 'node:child_process';
import { chownSync, closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { freePort } from './free-port.mjs';
import { withLog } from './log.mjs';
import { REPO_ROOT } from './paths.mjs';
import { isRoot, run } from './processes.mjs';
import { recordPid } from './run-dir.mjs';

const SETTINGS = ['fsync=off', 'synchronous_commit=off', 'full_page_writes=off', 'max_connections=300'];

/**
 * A throw-away PostgreSQL cluster in the run directory, on its own port and
 * socket directory, so the machine's own cluster (often on 5432) is never touched.
 * Durability is switched off: the data dies with the run anyway.
 */
export async function startPostgres(runDir, binDir, onStarted) {
  const data = join(runDir, 'pgdata');
  const sockets = join(runDir, 'pgsock');
  const log = join(runDir, 'postgres.log');
  mkdirSync(data, { mode: 0o700 });
  mkdirSync(sockets);
  closeSync(openSync(log, 'a'));
  // PostgreSQL refuses to run as root; the Debian package brings a `postgres` user.
  const runAs = isRoot() ? 'postgres' : null;
  if (runAs) {
    const uid = Number(execFileSync('id', ['-u', runAs]));
    const gid = Number(execFileSync('id', ['-g', runAs]));
    for (const path of [data, sockets, log]) chownSync(path, uid, gid);
  }
  const pg = (tool, args) => {
    const fd = openSync(log, 'a');
    const [command, argv] = runAs
      ? ['runuser', ['-u', runAs, '--', join(binDir, tool), ...args]]
      : [join(binDir, tool), args];
    return run(command, argv, { cwd: runDir, stdio: ['ignore', fd, fd] }).finally(() => closeSync(fd));
  };

  const initdb = [
    '-D',
    data,
    '-U',
    'postgres',
    '-A',
    'trust',
    '-E',
    'UTF8',
    '--locale=C',
    '--no-sync',
    '--no-instructions',
  ];
  if ((await pg('initdb', initdb)) !== 0) throw withLog('initdb failed', log);

  // The port is free when chosen but could be taken before postgres binds it; retry then.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const options = [
      `-p ${port}`,
      `-k ${sockets}`,
      '-c listen_addresses=127.0.0.1',
      ...SETTINGS.map((s) => `-c ${s}`),
    ];
    const code = await pg('pg_ctl', [
      'start',
      '-w',
      '-t',
      '60',
      '-D',
      data,
      '-l',
      log,
      '-o',
      options.join(' '),
    ]);
    if (code === 0) {
      const stop = async () => {
        const stopped = await pg('pg_ctl', ['stop', '-D', data, '-m', 'immediate', '-w', '-t', '20']);
        if (stopped !== 0) throw withLog(`pg_ctl stop failed (exit ${stopped})`, log, 10);
      };
      onStarted(stop);
      recordPid(
        runDir,
        'postgres',
        Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]),
      );
      return {
        port,
        url: (database) => `postgresql://postgres@127.0.0.1:${port}/${database}`,
        // For tests that restart the server (apps/platform/test/distributed): same data, port and log.
        control: { pgCtl: join(binDir, 'pg_ctl'), data, log, runAs: runAs ?? '' },
      };
    }
    const bindFailed = /could not bind|address already in use/i.test(readFileSync(log, 'utf8'));
    if (!bindFailed || attempt === 3) throw withLog(`pg_ctl start failed (exit ${code})`, log);
  }
}

/** Creates a database unless it exists (through `pg`, installed by then). */
export async function createDatabase(adminUrl, name) {
  const { Client } = createRequire(join(REPO_ROOT, 'package.json'))('pg');
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
    return !rowCount;
  } finally {
    await client.end();
  }
}

export async function dropDatabase(adminUrl, name) {
  const { Client } = createRequire(join(REPO_ROOT, 'package.json'))('pg');
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name.replaceAll('"', '""')}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
