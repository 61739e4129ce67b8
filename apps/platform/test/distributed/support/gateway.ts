import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { accessSync, chmodSync, constants, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { freePort, waitFor } from '@genasset/testing';

const REPO_ROOT = resolve(__dirname, '../../../../..');
/** The Compose gateway's configuration: the routes under test are the ones production ships. */
export const COMPOSE_NGINX_CONF = join(REPO_ROOT, 'deploy/compose/nginx.conf');

/** Upstream name in nginx.conf → the loopback ports of its replicas. */
export type Upstreams = Record<string, number[]>;

export interface Gateway {
  /** Public side (the Compose gateway's :8080). */
  url: string;
  /** Operator side (:8081, /admin only). */
  adminUrl: string;
  /** nginx's access log (JSON lines), for failure messages. */
  accessLog(): string;
  stop(): Promise<void>;
}

/** nginx from the system (Debian: /usr/sbin, often not on a user's PATH). */
export function findNginx(): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin'];
  for (const dir of dirs.filter(Boolean)) {
    try {
      accessSync(join(dir, 'nginx'), constants.X_OK);
      return join(dir, 'nginx');
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * The Compose gateway configuration turned into one for processes on loopback: Docker's DNS
 * `resolve` upstreams (nginx >= 1.27.3) become fixed 127.0.0.1 ports (Debian ships 1.22), the
 * listen ports become free ones, logs and temp files go to `dir`. Every location — which paths
 * are public, what /admin and /internal answer — stays exactly as shipped.
 */
export function gatewayConfig(source: string, dir: string, ports: { public: number; admin: number }, upstreams: Upstreams): string {
  let conf = source
    .replace(/^\s*resolver(_timeout)?\s[^;]*;\n/gm, '')
    .replace(/^\s*zone\s[^;]*;\n/gm, '')
    .replace(/^worker_processes\s[^;]*;/m, `worker_processes 1;\npid ${join(dir, 'nginx.pid')};\nerror_log ${join(dir, 'error.log')} warn;`)
    .replace(/access_log \/dev\/stdout/g, `access_log ${join(dir, 'access.log')}`)
    .replace(/^\s*error_log \/dev\/stderr[^;]*;\n/gm, '')
    .replace(/listen 8080;/g, `listen 127.0.0.1:${ports.public};`)
    .replace(/listen 8081;/g, `listen 127.0.0.1:${ports.admin};`)
    .replace(
      /^(\s*)http \{/m,
      (_m, indent: string) =>
        `${indent}http {\n` +
        ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
          .map((kind) => `  ${kind}_temp_path ${join(dir, `${kind}_temp`)};`)
          .join('\n'),
    );
  conf = conf.replace(/upstream (\w+) \{([^}]*)\}/g, (_m, name: string, body: string) => {
    const ports = upstreams[name];
    if (!ports?.length) throw new Error(`gateway: no replicas given for upstream ${name}`);
    const servers = ports.map((port) => `    server 127.0.0.1:${port} max_fails=1 fail_timeout=2s;`).join('\n');
    return `upstream ${name} {\n${servers}\n${body.replace(/^\s*server\s[^;]*;\n/gm, '')}}`;
  });
  if (/\sresolve;|resolver /.test(conf)) throw new Error('gateway: a Docker-only directive survived the rewrite');
  return conf;
}

/**
 * Starts nginx (foreground, own prefix directory) on free loopback ports; resolves once it answers /healthz.
 * `source` is the configuration to rewrite (the shipped deploy/compose/nginx.conf unless given).
 */
export async function startGateway(
  dir: string,
  upstreams: Upstreams,
  source = readFileSync(COMPOSE_NGINX_CONF, 'utf8'),
): Promise<Gateway> {
  const nginx = findNginx();
  if (!nginx)
    throw new Error('the distributed test needs nginx as its gateway: `npm test` installs it on Debian (apt-get install nginx)');
  mkdirSync(dir, { recursive: true });
  // Workers drop to `nobody` when nginx starts as root: they must reach the temp directories.
  chmodSync(dir, 0o777);
  for (const kind of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) {
    mkdirSync(join(dir, `${kind}_temp`), { recursive: true });
    chmodSync(join(dir, `${kind}_temp`), 0o777);
  }
  const ports = { public: await freePort(), admin: await freePort() };
  const confPath = join(dir, 'nginx.conf');
  writeFileSync(confPath, gatewayConfig(source, dir, ports, upstreams));
  const errorLog = join(dir, 'error.log');
  const check = spawnSync(nginx, ['-t', '-q', '-p', dir, '-e', errorLog, '-c', confPath], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`nginx -t refused the gateway configuration:\n${check.stderr}`);

  const child: ChildProcess = spawn(nginx, ['-p', dir, '-e', errorLog, '-c', confPath, '-g', 'daemon off;'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((res) => child.once('exit', () => res()));
  const url = `http://127.0.0.1:${ports.public}`;
  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`nginx exited: ${stderr}`);
      return (await fetch(`${url}/healthz`)).ok;
    },
    { timeoutMs: 20_000, intervalMs: 100, what: 'nginx /healthz' },
  );
  return {
    url,
    adminUrl: `http://127.0.0.1:${ports.admin}`,
    accessLog: () => {
      try {
        return readFileSync(join(dir, 'access.log'), 'utf8');
      } catch {
        return '';
      }
    },
    async stop() {
      // SIGQUIT: graceful shutdown of the master and its workers.
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGQUIT');
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([exited, new Promise((r) => (timer = setTimeout(r, 5_000)))]);
      clearTimeout(timer);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}
