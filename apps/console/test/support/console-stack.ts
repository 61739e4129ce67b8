import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { freePort, spawnTsProcess, waitFor, WebhookReceiver, type SpawnedProcess, EMBEDDED_PLATFORM_ENV, seedEmbeddedDataDir } from '@genasset/testing';

export const REPO_ROOT = resolve(__dirname, '../../../..');
/** Where the browser test saves its screenshots (git-ignored; README.md shows copies from docs/images/console). */
export const SCREENSHOT_DIR = join(REPO_ROOT, '.test-output/console');

export interface Bootstrap {
  adminToken: string;
  teamId: string;
  projectId: string;
  apiKey: string;
  apiSecret: string;
}

export interface ConsoleStack {
  base: string;
  bootstrap: Bootstrap;
  receiver: WebhookReceiver;
  browser: Browser;
  page: Page;
  /** Calls the API as the bootstrap key (test set-up that is not the point of a step). */
  api<T>(method: string, path: string, body?: unknown): Promise<T>;
  /** Calls with the admin token (the operator API), or with another key's credentials when given. */
  admin<T>(
    method: string,
    path: string,
    body?: unknown,
    key?: { apiKey: string; apiSecret: string },
  ): Promise<T>;
  stop(): Promise<void>;
}

/** Debian's chromium (`npm test` installs it as root), or CHROMIUM_PATH. */
function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(
    Boolean,
  ) as string[];
  const found = candidates.find((p) => existsSync(p));
  if (!found)
    throw new Error(
      'the console browser test needs Chromium: apt-get install chromium (npm test does it as root), or set CHROMIUM_PATH',
    );
  return found;
}

/**
 * The embedded platform as `npm start` runs it (its own OS process, a scratch DATA_DIR, the console
 * build served at /console), a real webhook receiver on loopback, and headless Chromium.
 */
export async function startConsoleStack(): Promise<ConsoleStack> {
  // Up to date already under `npm test` (scripts/test.mjs builds it first): then this is a no-op.
  execFileSync(process.execPath, ['scripts/console-build.mjs'], { cwd: REPO_ROOT, stdio: 'inherit' });
  rmSync(SCREENSHOT_DIR, { recursive: true, force: true });
  mkdirSync(SCREENSHOT_DIR, { recursive: true });

  const dataDir = mkdtempSync(join(tmpdir(), 'genasset-console-'));
  await seedEmbeddedDataDir(dataDir);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const receiver = await WebhookReceiver.start();
  let platform: SpawnedProcess | undefined;
  let browser: Browser | undefined;
  const stop = async () => {
    await browser?.close().catch(() => undefined);
    await platform?.kill('SIGTERM');
    await receiver.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    platform = spawnTsProcess('apps/platform/src/main.ts', {
      PORT: String(port),
      DATA_DIR: dataDir,
      PUBLIC_BASE_URL: base,
      LOG_LEVEL: 'warn',
      ...EMBEDDED_PLATFORM_ENV,
      // The receiver listens on http://127.0.0.1 (docs/webhooks.md, outbound safety).
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      // A failing receiver exhausts its 3 attempts within a second: only final deliveries can be resent.
      WEBHOOK_RETRY_DELAYS: '200ms,200ms',
    });
    await waitFor(() => fetch(`${base}/healthz`).then((r) => r.ok), {
      timeoutMs: 90_000,
      intervalMs: 200,
      what: 'platform /healthz',
    });
    const bootstrapFile = join(dataDir, 'bootstrap.json');
    await waitFor(() => statSync(bootstrapFile, { throwIfNoEntry: false }), {
      timeoutMs: 10_000,
      what: 'bootstrap.json',
    });
    const bootstrap = JSON.parse(readFileSync(bootstrapFile, 'utf8')) as Bootstrap;

    browser = await chromium.launch({
      executablePath: chromiumPath(),
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
      // launch() gives every run a fresh temporary profile (its own --user-data-dir).
    });
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    page.setDefaultTimeout(15_000);
    const basic = (key: string, secret: string) =>
      `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;
    const request = async <T>(
      authorization: string,
      method: string,
      path: string,
      body?: unknown,
    ): Promise<T> => {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
      return (await response.json()) as T;
    };
    const api = <T>(method: string, path: string, body?: unknown) =>
      request<T>(basic(bootstrap.apiKey, bootstrap.apiSecret), method, path, body);
    const admin = <T>(
      method: string,
      path: string,
      body?: unknown,
      key?: { apiKey: string; apiSecret: string },
    ) =>
      request<T>(
        key ? basic(key.apiKey, key.apiSecret) : `Bearer ${bootstrap.adminToken}`,
        method,
        path,
        body,
      );
    return { base, bootstrap, receiver, browser, page, api, admin, stop };
  } catch (error) {
    if (platform) console.error(platform.errors());
    await stop();
    throw error;
  }
}

/** Full-page screenshot under SCREENSHOT_DIR. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/** Form controls on the page without an accessible label (a `<label>`, aria-label or aria-labelledby). */
export function unlabelledControls(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll('input, select, textarea'))
      .filter((el) => (el as HTMLInputElement).type !== 'hidden')
      .filter(
        (el) =>
          !(el as HTMLInputElement).labels?.length &&
          !el.getAttribute('aria-label') &&
          !el.getAttribute('aria-labelledby'),
      )
      .map((el) => el.outerHTML.slice(0, 120)),
  );
}
