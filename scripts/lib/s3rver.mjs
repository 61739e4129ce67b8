import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { withLog } from './log.mjs';
import { REPO_ROOT } from './paths.mjs';
import { recordPid } from './run-dir.mjs';

export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/** s3rver on a port the OS picks, storing objects in the run directory, with the test bucket already there. */
export async function startS3rver(runDir, bucket, onStarted, timeoutMs = 15_000) {
  const directory = join(runDir, 's3');
  mkdirSync(directory);
  const log = join(runDir, 's3rver.log');
  const fd = openSync(log, 'a');
  // s3rver encrypts ListObjectsV2 continuation tokens with DES, which OpenSSL 3
  // only offers through its legacy provider: without it, paged listings fail with 500.
  const args = [
    '--openssl-legacy-provider',
    join(REPO_ROOT, 'scripts', 'lib', 's3rver-child.mjs'),
    directory,
    bucket,
  ];
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    stdio: ['ignore', fd, fd, 'ipc'],
    detached: true,
  });
  closeSync(fd);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  onStarted(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const stopped = await Promise.race([
      exited.then(() => true),
      new Promise((r) => setTimeout(() => r(false), 3_000)),
    ]);
    if (!stopped) {
      child.kill('SIGKILL');
      await exited;
    }
  });
  recordPid(runDir, 's3rver', child.pid);

  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(withLog(`s3rver did not start within ${timeoutMs} ms`, log)),
      timeoutMs,
    );
    child.once('message', (message) => {
      clearTimeout(timer);
      resolve(message.port);
    });
    child.once('exit', () => {
      clearTimeout(timer);
      reject(withLog('s3rver exited during start', log));
    });
  });
  return { endpoint: `http://127.0.0.1:${port}`, ...S3RVER_CREDENTIALS };
}
