import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { waitFor } from '@genasset/testing';
import {
  screenshot,
  SCREENSHOT_DIR,
  startConsoleStack,
  unlabelledControls,
  type ConsoleStack,
} from './support/console-stack';

/**
 * The web console in a real browser (Chromium via playwright-core) against the embedded platform,
 * as a user goes through it: sign in, upload, pixelate, webhook endpoint and its delivery log with
 * a receiver that fails and is then resent to. Each main screen is saved under
 * .test-output/console/ (README.md, "Web console").
 */
jest.setTimeout(60_000);

/** A 96×96 PNG with colour bands and a disc, so the pixelated output visibly differs. */
function sampleImage(): Promise<Buffer> {
  const size = 96;
  const pixels = Buffer.alloc(size * size * 3);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const inDisc = (x - 48) ** 2 + (y - 48) ** 2 < 28 ** 2;
      const i = (y * size + x) * 3;
      pixels[i] = inDisc ? 250 : (x * 255) / size;
      pixels[i + 1] = inDisc ? 200 : 90;
      pixels[i + 2] = inDisc ? 40 : (y * 255) / size;
    }
  }
  return sharp(pixels, { raw: { width: size, height: size, channels: 3 } })
    .png()
    .toBuffer();
}

describe('web console in Chromium', () => {
  let stack: ConsoleStack;
  let page: Page;
  let assetId: string;
  const requestedUrls: string[] = [];

  beforeAll(async () => {
    stack = await startConsoleStack();
    page = stack.page;
    page.on('request', (request) => requestedUrls.push(request.url()));
  }, 150_000);

  afterAll(async () => {
    await stack?.stop();
  });

  const nav = (name: string) =>
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();

  it('signs in: a wrong secret shows the API’s 401 message; the secret stays in session storage only', async () => {
    const { bootstrap } = stack;
    await page.goto(`${stack.base}/console/`);
    await page.getByLabel('API key').fill(bootstrap.apiKey);
    await page.getByLabel('API secret').fill('sk_wrong');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expectAlert(page, 'Invalid API key or secret');
    await screenshot(page, '01-sign-in-error');

    await page.getByLabel('API secret').fill(bootstrap.apiSecret);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Assets' }).waitFor();
    const storage = await page.evaluate(() => ({
      session: JSON.stringify(sessionStorage),
      local: localStorage.length,
      cookie: document.cookie,
      url: location.href,
    }));
    expect(storage.session).toContain(bootstrap.apiSecret);
    expect(storage).toMatchObject({ local: 0, cookie: '' });
    expect(storage.url).not.toContain(bootstrap.apiSecret);
  });

  it('uploads an image and shows it in the gallery', async () => {
    await page
      .getByLabel('Upload an image')
      .setInputFiles({ name: 'sprite.png', mimeType: 'image/png', buffer: await sampleImage() });
    await page.getByRole('status').filter({ hasText: 'Uploaded sprite.png' }).waitFor();
    const tile = page.getByRole('list', { name: 'Gallery' }).getByRole('link', { name: /sprite\.png/ });
    await tile.waitFor();
    await expect(imageLoaded(tile.locator('img'))).resolves.toBe(true);
    assetId = /\((asset_\w+)\)/.exec((await tile.getAttribute('aria-label')) ?? '')![1];
    expect(await unlabelledControls(page)).toEqual([]);
    await screenshot(page, '02-assets-gallery');
  });

  it('creates a webhook endpoint pointing at a local receiver and shows its secret once', async () => {
    await nav('Webhooks');
    await page.getByLabel('URL').fill(stack.receiver.url);
    await page.getByRole('button', { name: 'Create endpoint' }).click();
    const secret = page.getByLabel('Signing secret');
    await expect(secret.inputValue()).resolves.toMatch(/^whsec_/);
    expect(await unlabelledControls(page)).toEqual([]);
    await screenshot(page, '03-webhook-endpoint-created');
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await page.reload();
    await page.getByRole('link', { name: `Deliveries of ${stack.receiver.url}` }).waitFor();
    expect(await page.content()).not.toContain('whsec_');
  });

  it('runs a pixelate: the dry-run cost first, then the job live, then its output', async () => {
    await page.goto(`${stack.base}/console/assets/${assetId}`);
    await page.getByRole('link', { name: 'Pixelate this image' }).click();
    await expect(page.getByLabel(/^Image/).inputValue()).resolves.toBe(assetId);
    await page.getByLabel(/^Pixel grid size/).selectOption('16');
    await page.getByRole('button', { name: 'Estimate cost' }).click();
    await expect(page.getByTestId('dry-run-cost').innerText()).resolves.toBe('2');
    expect(await stack.api<{ jobs: unknown[] }>('GET', '/v1/jobs').then((r) => r.jobs)).toEqual([]);
    expect(await unlabelledControls(page)).toEqual([]);
    await screenshot(page, '04-generate-dry-run');

    await page.getByRole('button', { name: 'Generate for 2 units' }).click();
    await page.getByTestId('job-status').filter({ hasText: 'success' }).waitFor({ timeout: 30_000 });
    const output = page.getByRole('list', { name: 'Outputs' }).getByRole('link');
    await expect(output.count()).resolves.toBe(1);
    await expect(imageLoaded(output.locator('img'))).resolves.toBe(true);
    await screenshot(page, '05-generate-job-output');

    // The output's page shows its lineage: the uploaded image is its parent and its root.
    await output.click();
    await page.getByRole('heading', { name: 'Lineage' }).waitFor();
    await expect(page.getByRole('link', { name: assetId }).count()).resolves.toBe(2);
    await screenshot(page, '06-asset-lineage');
  });

  it('shows the deliveries arriving in the endpoint’s log, with payload and attempts', async () => {
    await stack.receiver.waitForRequests(2, 20_000);
    await nav('Webhooks');
    await page.getByRole('link', { name: `Deliveries of ${stack.receiver.url}` }).click();
    const log = page.getByRole('list', { name: 'Deliveries, newest first' });
    const completed = log.getByRole('listitem').filter({ hasText: 'generation.completed' });
    await completed.filter({ hasText: 'success' }).waitFor();
    await completed.getByRole('button', { name: 'Details' }).click();
    await expect(completed.getByRole('region', { name: 'Payload' }).innerText()).resolves.toContain(
      '"jobId"',
    );
    await expect(completed.innerText()).resolves.toContain('answered 200');
    expect(await unlabelledControls(page)).toEqual([]);
    await screenshot(page, '07-delivery-log');
  });

  it('shows a failing receiver’s answers, filters the failed deliveries, and resends one once the receiver is back', async () => {
    stack.receiver.respondWith(500);
    const { job } = await stack.api<{ job: { jobId: string } }>('POST', '/v1/generate/pixelate', {
      image: assetId,
      pixelGridSize: 32,
      removeNoise: false,
    });
    const log = page.getByRole('list', { name: 'Deliveries, newest first' });
    const deliveries = log.getByRole('listitem').filter({ has: page.locator('code.delivery-id') });
    // Three attempts, each answered 500 (retries 200 ms apart in this test), then `failed`.
    const failed = deliveries
      .filter({ hasText: 'generation.completed' })
      .filter({ hasText: '3 attempts, last answered 500' })
      .filter({ has: page.getByText('failed', { exact: true }) });
    await failed.waitFor({ timeout: 20_000 });
    const originalId = await failed.locator('code.delivery-id').innerText();

    // The log's filters come from the API's own query parameters: only failed deliveries.
    await page.getByText('Filters', { exact: true }).click();
    await page.locator('#filter-status').selectOption('failed');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    // generation.created and .completed of that job, nothing else.
    await waitFor(async () => (await deliveries.count()) === 2, {
      timeoutMs: 10_000,
      what: 'only the failed deliveries listed',
    });
    await expect(deliveries.filter({ has: page.getByText('failed', { exact: true }) }).count()).resolves.toBe(
      2,
    );
    await failed.getByRole('button', { name: 'Details' }).click();
    await screenshot(page, '08-delivery-failed');

    stack.receiver.respondWith(200);
    const sentBefore = stack.receiver.requests.length;
    await failed.getByRole('button', { name: 'Resend' }).click();
    const resentId = (
      await failed.getByRole('status').filter({ hasText: 'Resent as' }).locator('code').innerText()
    ).trim();
    expect(resentId).not.toBe(originalId);
    await page.getByRole('button', { name: 'Clear' }).click();
    // A new delivery record with its own id, naming the one it resends.
    await deliveries
      .filter({ has: page.locator('code.delivery-id', { hasText: resentId }) })
      .filter({ hasText: `resend of ${originalId}` })
      .filter({ has: page.getByText('success', { exact: true }) })
      .waitFor({ timeout: 20_000 });
    // The receiver gets the event's body again: the same id, so it can deduplicate.
    const delivered = await waitFor(
      () =>
        stack.receiver.requests
          .slice(sentBefore)
          .find((r) => JSON.parse(r.rawBody.toString()).id === originalId),
      { timeoutMs: 10_000, what: 'the resent delivery at the receiver' },
    );
    expect(JSON.parse(delivered.rawBody.toString())).toMatchObject({
      type: 'generation.completed',
      data: { jobId: job.jobId },
    });
    await screenshot(page, '09-delivery-resent');

    // Recover: the window's failed deliveries whose event has no successful one yet (generation.created).
    await page.getByText('Recover failed deliveries', { exact: true }).click();
    const tenMinutesAgo = await page.evaluate(() => {
      const d = new Date(Date.now() - 10 * 60_000);
      const pad = (n: number) => String(n).padStart(2, '0');
      return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
    });
    await page.getByLabel('Since').fill(tenMinutesAgo);
    await page.getByRole('button', { name: 'Recover', exact: true }).click();
    await page.getByRole('status').filter({ hasText: '1 delivery queued again.' }).waitFor();
  });

  it('lists jobs', async () => {
    await nav('Jobs');
    const rows = page.getByRole('table').getByRole('row');
    await rows.filter({ hasText: 'pixelate' }).nth(1).waitFor();
    await expect(rows.count()).resolves.toBe(3); // the header and both pixelate jobs
    await screenshot(page, '10-jobs');
  });

  it('shows the team’s credit usage, and its alerts to team admins only', async () => {
    const { bootstrap } = stack;
    const periodStart = new Date(Date.now() - 86_400_000).toISOString();
    const periodEnd = new Date(Date.now() + 29 * 86_400_000).toISOString();
    await stack.admin('PUT', `/admin/v1/teams/${bootstrap.teamId}/credit-plan`, {
      totalPeriodCreativeUnits: 1000,
      periodStart,
      periodEnd,
    });
    await nav('Credits');
    await expect(page.locator('#usage-meter').getAttribute('value')).resolves.toBe('1000');
    // The bootstrap key is a project admin: alert thresholds are for team admins, and the API says so.
    await expectAlert(page, 'This operation requires a team admin');

    // A team admin, in another tab (its own session storage), sets a threshold.
    const teamKey = await stack.admin<{ apiKey: string; apiSecret: string }>('POST', '/admin/v1/api-keys', {
      teamId: bootstrap.teamId,
      role: 'admin',
    });
    const tab = await stack.browser.newPage({ viewport: { width: 1280, height: 860 } });
    try {
      await tab.goto(`${stack.base}/console/credits`);
      await tab.getByLabel('API key').fill(teamKey.apiKey);
      await tab.getByLabel('API secret').fill(teamKey.apiSecret);
      await tab.getByRole('button', { name: 'Sign in' }).click();
      await tab.getByRole('button', { name: 'Add threshold' }).click();
      await tab.getByLabel('Value').fill('20');
      await tab.getByRole('button', { name: 'Save alerts' }).click();
      await tab.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      await tab.getByText('armed', { exact: true }).waitFor();
      expect(
        await stack.admin('GET', `/v1/teams/${bootstrap.teamId}/credit-alerts`, undefined, teamKey),
      ).toMatchObject({
        thresholds: [{ unit: 'percent', value: 20, armed: true }],
      });
      expect(await unlabelledControls(tab)).toEqual([]);
      await screenshot(tab, '11-credits');
    } finally {
      await tab.close();
    }
  });

  it('works 375 px wide and by keyboard alone', async () => {
    await page.setViewportSize({ width: 375, height: 812 });
    await nav('Assets');
    await page.getByRole('list', { name: 'Gallery' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await screenshot(page, '12-assets-375px');

    // Sign out, then sign in again with the keyboard only: Tab through labelled fields, Enter submits.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await tabTo(page, 'sign-in-key');
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    expect(outline).not.toBe('none');
    await page.keyboard.type(stack.bootstrap.apiKey);
    await page.keyboard.press('Tab');
    await page.keyboard.type(stack.bootstrap.apiSecret);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Assets' }).waitFor();
  });

  it('never put the secret in a URL the browser requested', () => {
    expect(requestedUrls.length).toBeGreaterThan(10);
    expect(requestedUrls.filter((url) => url.includes(stack.bootstrap.apiSecret))).toEqual([]);
    expect(SCREENSHOT_DIR).toContain('.test-output');
  });
});

async function expectAlert(page: Page, text: string): Promise<void> {
  await page.getByRole('alert').filter({ hasText: text }).waitFor();
}

function imageLoaded(img: ReturnType<Page['locator']>): Promise<boolean> {
  return img.evaluate((el: HTMLImageElement) =>
    el.complete && el.naturalWidth > 0
      ? true
      : new Promise<boolean>((resolve) => el.addEventListener('load', () => resolve(el.naturalWidth > 0))),
  );
}

/** Presses Tab until the element with this id has the focus (at most 30 times). */
async function tabTo(page: Page, id: string): Promise<void> {
  for (let i = 0; i < 30; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((target) => document.activeElement?.id === target, id)) return;
  }
  throw new Error(`Tab never reached #${id}`);
}
