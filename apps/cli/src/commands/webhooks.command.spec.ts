import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { sign } from '@genasset/webhooks';
import { parseDuration, webhooksCommand } from './webhooks.command';

const newSecret = () => `whsec_${randomBytes(24).toString('base64url')}`;
const body = (id: string) =>
  `{ "id":"${id}", "type" : "generation.completed",\n "data":{"jobId":"job_1","jobType":"txt2img","prompt":"caf\\u00e9 ☕ 𝄞"} }`;

/** A fresh command per run (commander keeps option values between parses), failing instead of exiting. */
function cli(signal?: AbortSignal) {
  const printed: unknown[] = [];
  const waiters: Array<{ test: (v: unknown) => boolean; resolve: (v: unknown) => void }> = [];
  const print = (value: unknown) => {
    printed.push(value);
    for (const w of waiters.splice(0)) {
      if (w.test(value)) w.resolve(value);
      else waiters.push(w);
    }
  };
  const command = webhooksCommand(print, { signal });
  const exitOverride = (c: Command): void =>
    void [c, ...c.commands].forEach((x) => x.exitOverride().configureOutput({ writeErr: () => {} }));
  exitOverride(command);
  return {
    printed,
    run: (...args: string[]) => command.parseAsync(args, { from: 'user' }),
    /** Resolves with the first printed value (already printed or yet to come) matching `test`. */
    next: (test: (v: unknown) => boolean) =>
      new Promise<unknown>((resolve, reject) => {
        const found = printed.find(test);
        if (found !== undefined) return resolve(found);
        const timer = setTimeout(
          () => reject(new Error(`nothing matching was printed; got ${JSON.stringify(printed)}`)),
          5_000,
        );
        waiters.push({ test, resolve: (v) => (clearTimeout(timer), resolve(v)) });
      }),
  };
}

describe('webhooks verify', () => {
  let dir: string;
  let exitCode: typeof process.exitCode;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'webhooks-verify-'));
    exitCode = process.exitCode;
    process.exitCode = undefined;
  });
  afterEach(async () => {
    process.exitCode = exitCode;
    await rm(dir, { recursive: true, force: true });
  });
  const file = async (name: string, content: string) => {
    const path = join(dir, name);
    await writeFile(path, content);
    return path;
  };

  it('prints "valid (signed at <ISO time>)" and leaves exit code 0', async () => {
    const secret = newSecret();
    const signedAt = Date.now() - 10_000;
    const { run, printed } = cli();
    await run(
      'verify',
      '--secret',
      secret,
      '--header',
      sign(body('whevent_1'), secret, signedAt),
      '--body-file',
      await file('b.json', body('whevent_1')),
    );
    expect(printed).toEqual([`valid (signed at ${new Date(signedAt).toISOString()})`]);
    expect(process.exitCode).toBeUndefined();
  });

  it('prints "invalid: <reason>" and sets exit code 1', async () => {
    const secret = newSecret();
    const path = await file('b.json', body('whevent_2'));
    const { run, printed } = cli();
    await run(
      'verify',
      '--secret',
      newSecret(),
      '--header',
      sign(body('whevent_2'), secret),
      '--body-file',
      path,
    );
    await run(
      'verify',
      '--secret',
      secret,
      '--header',
      sign(body('whevent_2'), secret, Date.now() - 301_000),
      '--body-file',
      path,
    );
    expect(printed).toEqual(['invalid: signature_mismatch', 'invalid: timestamp_too_old']);
    expect(process.exitCode).toBe(1);
  });

  it('honours --tolerance and accepts a pasted "X-SERVICE-SIGNATURE: …" line', async () => {
    const secret = newSecret();
    const header = `X-SERVICE-SIGNATURE: ${sign(body('whevent_3'), secret, Date.now() - 3_600_000)}`;
    const { run, printed } = cli();
    await run(
      'verify',
      '--secret',
      secret,
      '--header',
      header,
      '--body-file',
      await file('b.json', body('whevent_3')),
      '--tolerance',
      '2h',
      '--json',
    );
    expect(printed).toEqual([{ valid: true, signedAt: expect.any(String) }]);
  });

  it('points at a trailing newline added to the body file', async () => {
    const secret = newSecret();
    const { run, printed } = cli();
    await run(
      'verify',
      '--secret',
      secret,
      '--header',
      sign(body('whevent_4'), secret),
      '--body-file',
      await file('b.json', `${body('whevent_4')}\n`),
    );
    expect(printed).toEqual([expect.stringMatching(/^invalid: signature_mismatch \(.*trailing newline\)$/)]);
  });

  it('requires the secret (flag or WEBHOOK_SECRET)', async () => {
    const env = process.env.WEBHOOK_SECRET;
    delete process.env.WEBHOOK_SECRET;
    try {
      await expect(cli().run('verify', '--header', '1.ab', '--body-file', 'x')).rejects.toThrow(/--secret/);
    } finally {
      if (env !== undefined) process.env.WEBHOOK_SECRET = env;
    }
  });
});

describe('webhooks listen', () => {
  const listening = (v: unknown) => typeof v === 'string' && v.startsWith('listening on ');

  it('verifies real signed POSTs, prints one line per event and answers 200 / 400', async () => {
    const secret = newSecret();
    const stop = new AbortController();
    const { run, next, printed } = cli(stop.signal);
    const done = run('listen', '--port', '0', '--secret', secret, '--path', '/hooks');
    try {
      const url = String(await next(listening)).match(/^listening on (\S+)/)![1];
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/hooks$/);
      const send = (b: string, header: string) =>
        fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-service-signature': header },
          body: b,
        });

      const ok = await send(body('whevent_ok'), sign(body('whevent_ok'), secret));
      expect([ok.status, await ok.json()]).toEqual([200, { received: true }]);
      expect(await next((v) => String(v).includes('whevent_ok'))).toMatch(
        /^\d{4}-\d\d-\d\dT\S+Z whevent_ok generation\.completed verified$/,
      );

      const again = await send(body('whevent_ok'), sign(body('whevent_ok'), secret));
      expect(again.status).toBe(200);
      expect(await next((v) => String(v).endsWith('(duplicate)'))).toMatch(
        / whevent_ok generation\.completed verified \(duplicate\)$/,
      );

      const bad = await send(body('whevent_bad'), sign(body('whevent_bad').replace('☕', '☕ '), secret));
      expect([bad.status, await bad.json()]).toEqual([
        400,
        { error: 'webhook_rejected', reason: 'signature_mismatch' },
      ]);
      expect(await next((v) => String(v).includes('rejected'))).toMatch(
        /^\S+Z rejected: signature_mismatch$/,
      );

      expect((await fetch(url.replace('/hooks', '/elsewhere'), { method: 'POST', body: '{}' })).status).toBe(
        404,
      );
    } finally {
      stop.abort();
      await done;
    }
    expect(printed.filter((v) => String(v).includes(' verified'))).toHaveLength(2);
  });

  it('prints the event JSON with --json', async () => {
    const secret = newSecret();
    const stop = new AbortController();
    const { run, next } = cli(stop.signal);
    const done = run('listen', '--port', '0', '--secret', secret, '--json');
    try {
      const { listening: url } = (await next(
        (v) => typeof v === 'object' && v !== null && 'listening' in v,
      )) as { listening: string };
      const answer = await fetch(url, {
        method: 'POST',
        headers: { 'x-service-signature': sign(body('whevent_json'), secret) },
        body: body('whevent_json'),
      });
      expect(answer.status).toBe(200);
      expect(await next((v) => (v as { id?: string }).id === 'whevent_json')).toEqual({
        id: 'whevent_json',
        type: 'generation.completed',
        data: { jobId: 'job_1', jobType: 'txt2img', prompt: 'café ☕ 𝄞' },
      });
    } finally {
      stop.abort();
      await done;
    }
  });
});

describe('parseDuration', () => {
  it.each([
    ['300s', 300_000],
    ['5m', 300_000],
    ['250ms', 250],
    ['1h', 3_600_000],
    ['30', 30_000],
  ])('%s → %d ms', (text, ms) => expect(parseDuration(text)).toBe(ms));

  it('rejects anything else', () => expect(() => parseDuration('soon')).toThrow(/duration/));
});
