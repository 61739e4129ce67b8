import { freePort, WebhookReceiver, waitFor, type Responder, type ServiceHarness } from '@genasset/testing';
import { SIGNATURE_HEADER, USER_AGENT, verify } from '@genasset/webhooks';
import { networkFailure } from '../attempt-outcome';
import { DeliveryRepository } from '../delivery.repository';
import { startDispatchHarness } from './support/dispatch-test.module';
import { counters, createEndpoint, enqueue, signedAt, stored } from './support/webhook-rows';

// Short schedule so the spec's 1 min / 2 min retries take 300 / 600 ms here.
const DELAYS = [300, 600];
const TIMEOUT_MS = 1_000;

/**
 * The delivery worker against real HTTP receivers on loopback, a real
 * PostgreSQL, in the process composition the dispatcher app uses.
 */
describe('webhook delivery', () => {
  let harness: ServiceHarness;
  const receivers: WebhookReceiver[] = [];
  const receiver = async (respondWith?: Responder) => {
    const r = await WebhookReceiver.start({ respondWith });
    receivers.push(r);
    return r;
  };
  const final = (id: string, timeoutMs = 10_000) =>
    waitFor(
      async () => {
        const d = await stored(harness.db, id);
        return d.status === 'success' || d.status === 'failed' ? d : undefined;
      },
      { timeoutMs, what: `delivery ${id} final` },
    );

  /**
   * Sends one delivery to a fresh endpoint, due after everything queued so far, and waits until it is
   * recorded. The claim takes due deliveries oldest first, in one statement that leases them: once
   * this one was claimed, every claimable delivery due before it was leased too, so a delivery still
   * unleased and unattempted now was passed over, not merely not reached yet.
   */
  const claimedPast = async () => {
    const witness = await receiver(200);
    const endpoint = await createEndpoint(harness.db, { url: witness.url });
    const [id] = await enqueue(harness.db, endpoint.id);
    expect((await final(id)).status).toBe('success');
  };
  /** A delivery left as the claim found it: never leased, attempted `attempts` times. */
  const untouched = async (id: string, attempts: number) =>
    expect(await stored(harness.db, id)).toMatchObject({ attempt_count: attempts, lease_until: null });
  /** Waits (on the database's clock) until a retry is due: from then on a claim may take it. */
  const due = (id: string) =>
    waitFor(
      async () =>
        (await harness.db.query<{ due: boolean }>(
          `SELECT next_attempt_at <= now() AS due FROM webhooks.webhook_deliveries WHERE id = $1`,
          [id],
        ))[0]?.due,
      { timeoutMs: 10_000, what: `retry of ${id} due` },
    );

  beforeAll(async () => {
    harness = await startDispatchHarness({
      WEBHOOK_RETRY_DELAYS: DELAYS.map((d) => `${d}ms`).join(','),
      WEBHOOK_TIMEOUT: `${TIMEOUT_MS}ms`,
      WEBHOOK_LEASE_MARGIN: '2s',
      WEBHOOK_POLL_INTERVAL: '200ms',
      WEBHOOK_ENDPOINT_CONCURRENCY: '4',
    });
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await harness?.close();
  });

  it('sends exactly the spec headers, signed over the raw bytes sent, after the record exists', async () => {
    let statusWhenReceived: unknown;
    const hooks = await receiver();
    hooks.respondWith(async (req) => {
      const body = JSON.parse(req.rawBody.toString());
      statusWhenReceived = (await stored(harness.db, body.id)).status;
      return 200;
    });
    const endpoint = await createEndpoint(harness.db, { url: `${hooks.url}?tenant=1` });
    const before = await counters(harness.db, endpoint.id);
    const [id] = await enqueue(harness.db, endpoint.id, 1, {
      type: 'generation.completed',
      data: { jobId: 'job_1', jobType: 'inference' },
    });

    const [request] = await hooks.waitForRequests(1);
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/hooks?tenant=1');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['user-agent']).toBe(USER_AGENT);
    expect(request.headers['user-agent']).toBe('Service-Webhooks/2.0');
    expect(request.headers[SIGNATURE_HEADER]).toMatch(/^\d{13}\.[0-9a-f]{64}$/);
    // Nothing else beyond what HTTP/1.1 itself needs.
    expect(Object.keys(request.headers).sort()).toEqual(
      ['connection', 'content-length', 'content-type', 'host', 'user-agent', SIGNATURE_HEADER].sort(),
    );
    expect(request.rawBody.toString()).toBe(
      JSON.stringify({ id, type: 'generation.completed', data: { jobId: 'job_1', jobType: 'inference' } }),
    );
    expect(verify(request.rawBody, request.headers[SIGNATURE_HEADER], endpoint.secret)).toMatchObject({
      ok: true,
    });
    // One byte changed anywhere in the body, and the signature no longer holds.
    const tampered = Buffer.from(request.rawBody);
    tampered[tampered.length - 3] ^= 0x01;
    expect(verify(tampered, request.headers[SIGNATURE_HEADER], endpoint.secret)).toEqual({
      ok: false,
      reason: 'signature_mismatch',
    });
    expect(verify(request.rawBody, request.headers[SIGNATURE_HEADER], `${endpoint.secret}x`)).toMatchObject({
      ok: false,
    });

    const delivery = await final(id);
    expect(statusWhenReceived).toBe('created');
    expect(delivery).toMatchObject({
      status: 'success',
      attempt_count: 1,
      next_attempt_at: null,
      lease_until: null,
    });
    expect(delivery.attempts).toEqual([expect.objectContaining({ response_status_code: 200, error: null })]);
    expect(delivery.sent_at?.getTime()).toBe(delivery.attempts[0].sent_at.getTime());
    expect(signedAt(request.headers[SIGNATURE_HEADER])).toBe(delivery.attempts[0].sent_at.getTime());
    expect(await counters(harness.db, endpoint.id)).toEqual({
      total: before.total + 1,
      failed: before.failed,
    });
    await claimedPast();
    expect(hooks.requests).toHaveLength(1);
  });

  it('retries after a 500 with a fresh signature and succeeds: two attempts, counters +2/+1', async () => {
    const hooks = await receiver((_req: unknown, index: number) => (index === 0 ? 500 : 200));
    const endpoint = await createEndpoint(harness.db, { url: hooks.url });
    const [id] = await enqueue(harness.db, endpoint.id);

    const delivery = await final(id);
    expect(delivery.status).toBe('success');
    expect(delivery.attempts.map((a) => a.response_status_code)).toEqual([500, 200]);
    expect(await counters(harness.db, endpoint.id)).toEqual({ total: 2, failed: 1 });

    const [first, second] = hooks.requests;
    expect(hooks.requests).toHaveLength(2);
    // Same event, same bytes; a fresh timestamp, each signature valid on its own.
    expect(second.rawBody.equals(first.rawBody)).toBe(true);
    expect(JSON.parse(second.rawBody.toString()).id).toBe(id);
    expect(verify(first.rawBody, first.headers[SIGNATURE_HEADER], endpoint.secret).ok).toBe(true);
    expect(verify(second.rawBody, second.headers[SIGNATURE_HEADER], endpoint.secret).ok).toBe(true);
    expect(second.headers[SIGNATURE_HEADER]).not.toBe(first.headers[SIGNATURE_HEADER]);
    expect(
      signedAt(second.headers[SIGNATURE_HEADER]) - signedAt(first.headers[SIGNATURE_HEADER]),
    ).toBeGreaterThanOrEqual(DELAYS[0]);
    // "About" the configured delay after the failure: not before it, not much after.
    const gap = second.receivedAt - first.receivedAt;
    expect(gap).toBeGreaterThanOrEqual(DELAYS[0]);
    expect(gap).toBeLessThan(DELAYS[0] + 700);
  });

  it('gives up after the third failure: status failed, counters +3/+3, nothing sent afterwards', async () => {
    const hooks = await receiver(503);
    const endpoint = await createEndpoint(harness.db, { url: hooks.url });
    const [id] = await enqueue(harness.db, endpoint.id);

    const delivery = await final(id);
    expect(delivery).toMatchObject({
      status: 'failed',
      attempt_count: 3,
      next_attempt_at: null,
      lease_until: null,
    });
    expect(delivery.attempts.map((a) => a.response_status_code)).toEqual([503, 503, 503]);
    expect(await counters(harness.db, endpoint.id)).toEqual({ total: 3, failed: 3 });
    const [a, b, c] = hooks.requests;
    expect(b.receivedAt - a.receivedAt).toBeGreaterThanOrEqual(DELAYS[0]);
    expect(c.receivedAt - b.receivedAt).toBeGreaterThanOrEqual(DELAYS[1]);
    expect(c.receivedAt - b.receivedAt).toBeLessThan(DELAYS[1] + 700);
    const stamps = hooks.requests.map((r) => signedAt(r.headers[SIGNATURE_HEADER]));
    expect(new Set(stamps).size).toBe(3);

    await claimedPast();
    expect(hooks.requests).toHaveLength(3);
    expect((await stored(harness.db, id)).attempts).toHaveLength(3);
  });

  it('records any 2xx as 200', async () => {
    const hooks = await receiver((_req: unknown, index: number) => (index === 0 ? 201 : 204));
    const endpoint = await createEndpoint(harness.db, { url: hooks.url });
    const [first] = await enqueue(harness.db, endpoint.id);
    await hooks.waitForRequests(1);
    const [second] = await enqueue(harness.db, endpoint.id);
    for (const id of [first, second]) {
      const delivery = await final(id);
      expect(delivery.status).toBe('success');
      expect(delivery.attempts.map((a) => a.response_status_code)).toEqual([200]);
    }
    expect(await counters(harness.db, endpoint.id)).toEqual({ total: 2, failed: 0 });
  });

  it('records a receiver that never answers as a 500 timeout after WEBHOOK_TIMEOUT, then retries', async () => {
    const hooks = await receiver((_req: unknown, index: number) =>
      index === 0 ? { status: 200, hang: true } : 200,
    );
    const endpoint = await createEndpoint(harness.db, { url: hooks.url });
    const [id] = await enqueue(harness.db, endpoint.id);

    const delivery = await final(id);
    expect(delivery.status).toBe('success');
    expect(delivery.attempts.map((a) => a.response_status_code)).toEqual([500, 200]);
    expect(delivery.attempts[0].error).toMatch(/timeout/);
    expect(delivery.attempts[0].duration_ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(delivery.attempts[0].duration_ms).toBeLessThan(TIMEOUT_MS + 500);
    expect(await counters(harness.db, endpoint.id)).toEqual({ total: 2, failed: 1 });
  });

  it('records a refused connection as 500 and fails after three attempts', async () => {
    const port = await freePort(); // nothing listens there
    const endpoint = await createEndpoint(harness.db, { url: `http://127.0.0.1:${port}/hooks` });
    const [id] = await enqueue(harness.db, endpoint.id);

    const delivery = await final(id);
    expect(delivery.status).toBe('failed');
    expect(delivery.attempts.map((a) => a.response_status_code)).toEqual([500, 500, 500]);
    expect(delivery.attempts[0].error).toMatch(/ECONNREFUSED/);
    expect(await counters(harness.db, endpoint.id)).toEqual({ total: 3, failed: 3 });
  });

  it('does not follow redirects: a 3xx is the answer, recorded as such', async () => {
    const target = await receiver(200);
    const hooks = await receiver({ status: 307, headers: { location: target.url } });
    const endpoint = await createEndpoint(harness.db, { url: hooks.url });
    const [id] = await enqueue(harness.db, endpoint.id);
    await waitFor(async () => (await stored(harness.db, id)).attempts.length >= 1, {
      what: 'first attempt recorded',
    });
    const delivery = await stored(harness.db, id);
    expect(delivery.attempts[0].response_status_code).toBe(307);
    expect(delivery.status).toBe('retrying');
    expect(target.requests).toHaveLength(0);
  });

  it('records -1 without sending when the endpoint secret cannot be decrypted', async () => {
    const hooks = await receiver(200);
    const endpoint = await createEndpoint(harness.db, {
      url: hooks.url,
      secretCiphertext: 'v1.bm90LWEtcmVhbC1jaXBoZXJ0ZXh0LWF0LWFsbC0xMjM0NTY3OA',
    });
    const [id] = await enqueue(harness.db, endpoint.id);

    const delivery = await final(id);
    expect(delivery.status).toBe('failed');
    expect(delivery.attempts.map((a) => a.response_status_code)).toEqual([-1, -1, -1]);
    expect(delivery.attempts[0].error).toBe('endpoint secret could not be decrypted');
    expect(await counters(harness.db, endpoint.id)).toEqual({ total: 3, failed: 3 });
    expect(hooks.requests).toHaveLength(0);
  });

  it('records -1 for a stored payload that cannot be delivered', async () => {
    const hooks = await receiver(200);
    const endpoint = await createEndpoint(harness.db, { url: hooks.url });
    const [id] = await enqueue(harness.db, endpoint.id, 1, {
      payload: () => ({ id: 'whevent_someone_else', type: 'x', data: {} }),
    });
    const delivery = await final(id);
    expect(delivery.attempts.map((a) => a.response_status_code)).toEqual([-1, -1, -1]);
    expect(delivery.attempts[0].error).toMatch(/does not match the delivery/);
    expect(hooks.requests).toHaveLength(0);
  });

  it('keeps a paused endpoint’s pending deliveries unsent, and sends them and new ones after resume', async () => {
    const hooks = await receiver(200);
    const endpoint = await createEndpoint(harness.db, { url: hooks.url, enabled: false });
    const pending = await enqueue(harness.db, endpoint.id, 3);
    await claimedPast();
    expect(hooks.requests).toHaveLength(0);
    for (const id of pending) expect((await stored(harness.db, id)).status).toBe('created');
    for (const id of pending) await untouched(id, 0);

    await harness.db.query(`UPDATE webhooks.webhook_endpoints SET enabled = true WHERE id = $1`, [
      endpoint.id,
    ]);
    const fresh = await enqueue(harness.db, endpoint.id, 2);
    for (const id of [...pending, ...fresh]) expect((await final(id)).status).toBe('success');
    const delivered = hooks.requests.map((r) => JSON.parse(r.rawBody.toString()).id).sort();
    expect(delivered).toEqual([...pending, ...fresh].sort());
  });

  it('stops a paused endpoint’s retries until it is resumed', async () => {
    const hooks = await receiver((_req: unknown, index: number) => (index === 0 ? 500 : 200));
    const endpoint = await createEndpoint(harness.db, { url: hooks.url });
    const [id] = await enqueue(harness.db, endpoint.id);
    await hooks.waitForRequests(1);
    await harness.db.query(`UPDATE webhooks.webhook_endpoints SET enabled = false WHERE id = $1`, [
      endpoint.id,
    ]);
    await due(id);
    await claimedPast();
    expect(hooks.requests).toHaveLength(1);
    expect((await stored(harness.db, id)).status).toBe('retrying');
    await untouched(id, 1);

    await harness.db.query(`UPDATE webhooks.webhook_endpoints SET enabled = true WHERE id = $1`, [
      endpoint.id,
    ]);
    expect((await final(id)).attempts.map((a) => a.response_status_code)).toEqual([500, 200]);
  });

  it('sends nothing more for a deleted endpoint, including an attempt in flight when it was deleted', async () => {
    let release!: () => void;
    const answered = new Promise<void>((r) => (release = r));
    const hooks = await receiver(async () => {
      await answered;
      return 500;
    });
    const endpoint = await createEndpoint(harness.db, { url: hooks.url });
    const [id] = await enqueue(harness.db, endpoint.id);
    await hooks.waitForRequests(1);
    await harness.db.query(`DELETE FROM webhooks.webhook_endpoints WHERE id = $1`, [endpoint.id]);
    release();
    await new Promise((r) => setTimeout(r, DELAYS[0] + 800));
    expect(hooks.requests).toHaveLength(1);
    // The delivery is gone, and with it its attempts (they are in the row).
    expect(
      await harness.db.query(`SELECT 1 FROM webhooks.webhook_deliveries WHERE id = $1`, [id]),
    ).toHaveLength(0);

    // The worker recorded around the vanished row and carries on.
    const next = await receiver(200);
    const other = await createEndpoint(harness.db, { url: next.url });
    const [nextId] = await enqueue(harness.db, other.id);
    expect((await final(nextId)).status).toBe('success');
  });

  it('records the retry policy’s decision for the attempt’s real number, a duplicate recorded late included', async () => {
    // A paused endpoint: the workers leave its deliveries alone, this test records for them.
    const endpoint = await createEndpoint(harness.db, { url: 'http://127.0.0.1:9/never', enabled: false });
    const [fresh, raced] = await enqueue(harness.db, endpoint.id, 2);
    // `raced` was claimed at 0 attempts, its lease ran out, and two later attempts were recorded meanwhile.
    await harness.db.query(
      `UPDATE webhooks.webhook_deliveries SET status = 'retrying', attempt_count = 2 WHERE id = $1`,
      [raced],
    );
    const repository = new DeliveryRepository(harness.db);
    const sentAt = new Date();
    const failed = networkFailure('ECONNREFUSED', sentAt, 20);
    const schedule = { retryDelaysMs: DELAYS, maxAttempts: 3 };
    try {
      const retries = await repository.record(
        [fresh, raced].map((id) => ({ deliveryId: id, endpointId: endpoint.id, attempt: 1, ...failed })),
        schedule,
      );
      expect(retries).toHaveLength(1);
    } finally {
      await repository.close();
    }
    const first = await stored(harness.db, fresh);
    expect(first).toMatchObject({ status: 'retrying', attempt_count: 1 });
    const delay = first.next_attempt_at!.getTime() - (sentAt.getTime() + 20);
    expect(delay).toBeGreaterThanOrEqual(DELAYS[0]);
    expect(delay).toBeLessThanOrEqual(DELAYS[0] * 1.1);
    // Its third attempt in all: the limit, whatever number it was claimed as.
    expect(await stored(harness.db, raced)).toMatchObject({ status: 'failed', attempt_count: 3, next_attempt_at: null });
  });

  it('caps attempts in flight per endpoint and reads at most a small response body', async () => {
    let active = 0;
    let peak = 0;
    const hooks = await receiver(async () => {
      active++;
      peak = Math.max(peak, active);
      await new Promise((r) => setTimeout(r, 100));
      active--;
      return { status: 200, body: 'x'.repeat(256 * 1024) };
    });
    const endpoint = await createEndpoint(harness.db, { url: hooks.url });
    const ids = await enqueue(harness.db, endpoint.id, 20);
    for (const id of ids) expect((await final(id)).status).toBe('success');
    expect(hooks.requests).toHaveLength(20);
    expect(peak).toBeLessThanOrEqual(4); // WEBHOOK_ENDPOINT_CONCURRENCY
    expect(peak).toBeGreaterThanOrEqual(2);
  });
});
