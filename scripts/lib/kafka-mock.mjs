import { spawn } from 'node:child_process';
import {
  closeSync,
  constants,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { info, withLog } from './log.mjs';
import { CACHE_DIR, REPO_ROOT } from './paths.mjs';
import { run } from './processes.mjs';
import { recordPid } from './run-dir.mjs';

const SOURCE = join(REPO_ROOT, 'tools', 'kafka-mock', 'kafka-mock.c');
const BINARY = join(CACHE_DIR, 'kafka-mock');

/** Compiles the librdkafka mock-cluster launcher once; again only when its source changed. */
export async function buildKafkaMock() {
  if (existsSync(BINARY) && statSync(BINARY).mtimeMs >= statSync(SOURCE).mtimeMs) return BINARY;
  mkdirSync(CACHE_DIR, { recursive: true });
  // Build beside, then rename: a parallel run never executes a half-written binary.
  const partial = `${BINARY}.${process.pid}`;
  const code = await run('gcc', ['-O2', '-Wall', '-o', partial, SOURCE, '-lrdkafka']);
  if (code !== 0) throw new Error(`compiling ${SOURCE} failed (exit ${code}); is librdkafka-dev installed?`);
  renameSync(partial, BINARY);
  info(`compiled ${BINARY}`);
  return BINARY;
}

/**
 * Starts the Kafka-protocol test broker with every topic created up front (the
 * mock cluster has no Admin API). Its own process group keeps Ctrl-C away from
 * it, so it is stopped in order by teardown; it exits by itself if we die.
 */
export async function startKafkaMock(runDir, topics, { brokers = 3, partitions = 6 } = {}, onStarted) {
  // Creating topics in librdkafka 2.0's mock cluster is usually instant but now
  // and then stalls about 1 s per topic (seen: 0 to 4 s for 12 topics).
  const timeoutMs = 20_000 + 1_000 * topics.length;
  const binary = await buildKafkaMock();
  const control = join(runDir, 'kafka-mock.ctl');
  const log = join(runDir, 'kafka-mock.log');
  const fd = openSync(log, 'a');
  const child = spawn(binary, [String(brokers), String(partitions), control, ...topics], {
    cwd: runDir,
    stdio: ['ignore', fd, fd],
    detached: true,
  });
  closeSync(fd);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.once('error', () => undefined);
  onStarted(() => stopKafkaMock(child, control, exited));
  recordPid(runDir, 'kafka-mock', child.pid);

  // Stdout goes to a file, not a pipe: an unread pipe would block the broker's "OK" replies later.
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const bootstrap = /^BOOTSTRAP (\S+)$/m.exec(readFileSync(log, 'utf8'))?.[1];
    if (bootstrap) return { brokers: bootstrap, control };
    if (child.exitCode !== null || child.signalCode !== null)
      throw withLog('kafka-mock exited during start', log);
    if (Date.now() > deadline)
      throw withLog(`kafka-mock printed no BOOTSTRAP line within ${timeoutMs} ms`, log);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function stopKafkaMock(child, control, exited) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  try {
    // Non-blocking: opening a FIFO nobody reads would otherwise wait forever.
    const fifo = openSync(control, constants.O_WRONLY | constants.O_NONBLOCK);
    try {
      writeSync(fifo, 'quit\n');
    } finally {
      closeSync(fifo);
    }
  } catch {
    // no reader left: the process is on its way out, the kill below makes sure
  }
  const quit = await Promise.race([
    exited.then(() => true),
    new Promise((r) => setTimeout(() => r(false), 3_000)),
  ]);
  if (!quit) {
    child.kill('SIGKILL');
    await exited;
  }
}
