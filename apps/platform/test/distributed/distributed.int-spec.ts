import sharp from 'sharp';
import { brokerControl, FAKE_BACKEND_ROUTES, generateOnBackend, startFakeBackends, waitFor, type DeploymentClient, type FakeBackends } from '@genasset/testing';
import { postgresControl } from './support/postgres-control';
import { startStack, type Instance, type Stack, type Tenant } from './support/stack';
import { WebhookLedger, type Tally } from './support/webhook-ledger';

// Seven Node processes, nginx, and outages of 30 s on a shared 2-core machine.
jest.setTimeout(420_000);

const GENERATION = ['generation.created', 'generation.completed'] as const;
/** Figures of every drill, printed at the end (and by the CI log) for the closing note. */
const figures: string[] = [];
const record = (line: string) => {
  figures.push(line);
  console.log(`[distributed] ${line}`);
};
const tallyText = (t: Tally, replicas?: Map<number | undefined, string>) => {
  const share = [...t.byPid.entries()].map(([pid, n]) => `${replicas?.get(pid) ?? `pid ${pid ?? '?'}`}: ${n}`).join(', ');
  return `${t.delivered}/${t.expected} delivered, ${t.lost} lost, ${t.duplicates} duplicate(s)${share ? ` (${share})` : ''}`;
};
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;
};

/**
 * The distributed deployment end to end: every app its own OS process, behind nginx with the
 * Compose gateway's routes, on the test PostgreSQL, Kafka-protocol broker and S3 server. The
 * scenario of the embedded tests through the gateway, then drills that each prove nothing is
 * lost: two dispatcher replicas, a dispatcher SIGTERMed under load, the brokers down for 30 s,
 * PostgreSQL restarted. `npm test` runs this file alone, after the integration tests.
 */
describe('distributed deployment', () => {
  let stack: Stack;
  let ledger: WebhookLedger;
  let tenant: Tenant;
  let endpointId: string;
  let input: string;
  let generatedAsset: string;
  let sigtermed: Instance | undefined;
  /** ComfyUI, OpenAI, Replicate and Cog fakes, in INFERENCE_BACKENDS_FILE of every process. */
  let fakes: FakeBackends;
  const dispatchers = () => stack.instances.filter((i) => i.app === 'webhook-dispatcher');
  const live = (i: Instance) => i.proc.child.exitCode === null && i.proc.child.signalCode === null;
  const replicaNames = () => new Map<number | undefined, string>(dispatchers().map((d) => [d.proc.child.pid, d.label]));

  const png = (w: number, h: number, seed = 0) => {
    const data = Buffer.alloc(w * h * 3);
    for (let i = 0; i < data.length; i++) data[i] = (i * 31 + seed * 17 + ((i * 7) % 13)) % 256;
    return sharp(data, { raw: { width: w, height: h, channels: 3 } }).png().toBuffer();
  };
  const upload = async (bytes: Buffer, name: string): Promise<string> => {
    const res = await stack.request('POST', '/v1/assets', {
      auth: tenant.member,
      body: { image: `data:image/png;base64,${bytes.toString('base64')}`, name },
    });
    if (res.status !== 200) throw new Error(`upload: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.asset.id as string;
  };
  const pixelate = (image: string) =>
    stack.request('POST', '/v1/generate/pixelate', {
      auth: tenant.member,
      body: { image, pixelGridSize: 16, removeNoise: false, colorPaletteSize: 4 },
    });
  /** `n` generation requests through the gateway, a few at a time; every one must be accepted. */
  const burst = async (n: number): Promise<{ jobIds: string[]; sentAt: Map<string, number> }> => {
    const jobIds: string[] = [];
    const sentAt = new Map<string, number>();
    const failures: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < n) {
          next++;
          const started = Date.now();
          const res = await pixelate(input);
          if (res.status === 200) {
            jobIds.push(res.body.job.jobId);
            sentAt.set(res.body.job.jobId, started);
          } else failures.push(`${res.status} ${JSON.stringify(res.body)}`);
        }
      }),
    );
    expect(failures).toEqual([]);
    return { jobIds, sentAt };
  };
  const jobStatuses = async (jobIds: string[]) =>
    Object.fromEntries(
      (
        await stack.sql<{ status: string; n: number }>(
          'SELECT status, count(*)::int AS n FROM jobs.jobs WHERE id = ANY ($1::text[]) GROUP BY status',
          [jobIds],
        )
      ).map((r) => [r.status, r.n]),
    );
  const deliveryLatencies = (jobIds: string[], sentAt: Map<string, number>) =>
    jobIds.flatMap((id) => {
      const done = ledger.of(id, 'generation.completed')[0];
      return done ? [done.receivedAt - sentAt.get(id)!] : [];
    });

  beforeAll(async () => {
    const started = Date.now();
    ledger = await WebhookLedger.start(() => (stack ? dispatchers().filter(live).map((d) => d.proc.child.pid!) : []));
    fakes = await startFakeBackends();
    stack = await startStack({ replicas: { 'webhook-dispatcher': 2 }, env: fakes.env });
    record(`stack up (7 app processes + nginx, every /readyz green) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    tenant = await stack.tenant();
  }, 600_000);

  afterAll(async () => {
    console.log(`[distributed] figures:\n  ${figures.join('\n  ')}`);
    // The last words of any process that died without being told to (the drill SIGTERMs one replica).
    if (stack?.instances.some((i) => !live(i) && i !== sigtermed)) console.log(`[distributed] processes:\n${stack.diagnostics()}`);
    await stack?.stop();
    await ledger?.close();
    await fakes?.close();
  });

  afterEach(() => {
    expect(ledger.rejected).toEqual([]);
  });

  describe('the API scenario through the gateway', () => {
    it('keeps /admin and /internal off the public side and serves operators on the admin side', async () => {
      for (const path of ['/admin/v1/teams', '/internal/v1/jobs', '/readyz', '/v1/files/x'])
        expect([path, (await stack.request('GET', path)).status]).toEqual([path, 404]);
      const admin = await stack.request('POST', '/admin/v1/teams', {
        auth: `Bearer ${stack.adminToken}`,
        body: { name: 'through the public side' },
      });
      expect(admin.status).toBe(404);
      const me = await stack.request('GET', '/v1/me', { auth: tenant.member });
      expect(me).toMatchObject({ status: 200, body: { apiKey: { teamId: tenant.teamId, projectId: tenant.projectId, role: 'member' } } });
      expect((await stack.request('GET', '/v1/me')).status).toBe(401);
    });

    it('creates a webhook endpoint, uploads, generates (pixelate) and delivers signed, verified webhooks', async () => {
      const endpoint = await stack.request('POST', `/v1/projects/${tenant.projectId}/webhook-endpoints`, {
        auth: tenant.admin,
        body: { url: ledger.url, enabledEvents: [...GENERATION, 'asset.download.completed'] },
      });
      expect(endpoint.status).toBe(200);
      endpointId = endpoint.body.webhookEndpoint.id;
      ledger.secret = endpoint.body.webhookEndpoint.secret;

      const started = Date.now();
      input = await upload(await png(40, 24), 'input.png');
      const generated = await pixelate(input);
      expect(generated.status).toBe(200);
      expect(generated.body.asset).toMatchObject({ status: 'pending', source: 'pixelization' });
      const jobId = generated.body.job.jobId as string;
      generatedAsset = generated.body.asset.id;

      const tally = await ledger.settle([jobId], GENERATION, 120_000);
      expect(tally).toMatchObject({ lost: 0, duplicates: 0 });
      const completed = ledger.of(jobId, 'generation.completed')[0];
      expect(completed.data).toMatchObject({ jobId, jobType: 'pixelate' });
      record(`scenario: upload → generation.completed webhook (verified) in ${completed.receivedAt - started} ms`);
      // The endpoint's owner sees the delivery and its 200 attempt in the delivery log.
      const logged = await waitFor(
        async () => {
          const res = await stack.request('GET', `/v1/projects/${tenant.projectId}/webhook-endpoints/${endpointId}/events`, { auth: tenant.admin });
          const items = (res.body?.items ?? []) as { type: string; payload: { data?: { jobId?: string } }; attempts: unknown[] }[];
          const item = items.find((i) => i.type === 'generation.completed' && i.payload?.data?.jobId === jobId);
          return item?.attempts.length ? item : undefined;
        },
        { timeoutMs: 30_000, intervalMs: 250, what: 'the delivery in the endpoint log' },
      );
      expect(logged.attempts).toEqual([{ responseStatusCode: 200, sentAt: expect.any(String) }]);

      const job = await stack.request('GET', `/v1/jobs/${jobId}`, { auth: tenant.member });
      expect(job.body.job).toMatchObject({ status: 'success', metadata: { assetIds: [generated.body.asset.id] } });
      const asset = await stack.request('GET', `/v1/assets/${generated.body.asset.id}?originalAssets=true`, { auth: tenant.member });
      expect(asset.body.asset).toMatchObject({ status: 'success', source: 'pixelization', properties: { width: 40, height: 24 } });
      const bytes = Buffer.from(await (await fetch(asset.body.asset.url)).arrayBuffer());
      expect((await sharp(bytes).metadata()).width).toBe(40);
    });

    it('builds a batch download (zip in S3) and announces it by webhook', async () => {
      const assetIds = [input, generatedAsset];
      const requested = await stack.request('POST', '/v1/assets/download', {
        auth: tenant.member,
        body: { query: { assetIds, inferenceIds: [], modelIds: [] }, options: { fileNameTemplate: '' } },
      });
      expect(requested.status).toBe(200);
      const jobId = requested.body.jobId as string;
      const done = await waitFor(
        async () => {
          const res = await stack.request('GET', `/v1/assets/download/${jobId}`, { auth: tenant.member });
          return ['success', 'failure', 'canceled'].includes(res.body.jobStatus) ? res.body : undefined;
        },
        { timeoutMs: 90_000, intervalMs: 250, what: `download ${jobId}` },
      );
      expect(done).toMatchObject({ jobStatus: 'success', downloadUrl: expect.stringMatching(/^http/) });
      const zip = Buffer.from(await (await fetch(done.downloadUrl)).arrayBuffer());
      expect(zip.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004');
      // One local file header per asset.
      expect(zip.toString('latin1').split('PK\u0003\u0004').length - 1).toBe(assetIds.length);

      const tally = await ledger.settle([jobId], ['asset.download.completed'], 60_000);
      expect(tally).toMatchObject({ lost: 0, duplicates: 0 });
      expect(ledger.of(jobId, 'asset.download.completed')[0].data).toEqual({ jobId, downloadUrl: done.downloadUrl });
    });

    it('manages collections across services: membership checked with asset-service, asset deletion applied by event', async () => {
      const a = await upload(await png(8, 8, 1), 'a.png');
      const b = await upload(await png(8, 8, 2), 'b.png');
      const created = await stack.request('POST', '/v1/collections', { auth: tenant.member, body: { name: 'Distributed' } });
      expect(created.status).toBe(200);
      const id = created.body.collection.id as string;
      const added = await stack.request('PUT', `/v1/collections/${id}/assets`, { auth: tenant.member, body: { assetIds: [a, b] } });
      expect(added.status).toBe(200);
      const unknown = await stack.request('PUT', `/v1/collections/${id}/assets`, {
        auth: tenant.member,
        body: { assetIds: ['asset_01JD6Z3Q9V8K2M4N6P8R0T2V4X'] },
      });
      expect(unknown.status).toBe(404);
      const details = async () => (await stack.request('GET', `/v1/collections/${id}`, { auth: tenant.member })).body.collection;
      expect(await details()).toMatchObject({ name: 'Distributed', assetCount: 2, itemCount: 2 });

      const deleted = await stack.request('DELETE', '/v1/assets', { auth: tenant.member, body: { assetIds: [a] } });
      expect(deleted.status).toBe(200);
      await waitFor(async () => (await details()).assetCount === 1, { timeoutMs: 60_000, intervalMs: 250, what: 'asset.deleted applied to the collection' });
      const listed = await stack.request('GET', '/v1/collections', { auth: tenant.member });
      expect(listed.body.collections.map((c: { id: string }) => c.id)).toContain(id);
    });
  });

  // Issue #19 item 9, distributed: the inference worker in its own process reaches each backend;
  // the asset (asset-service) holds the backend's bytes, the signed webhook comes from a dispatcher.
  describe('every backend engine through the gateway', () => {
    const client: DeploymentClient = {
      request: (method, path, body) => stack.request(method, path, { auth: tenant.member, ...(body === undefined ? {} : { body }) }),
      completed: (jobId) =>
        waitFor(() => ledger.of(jobId, 'generation.completed')[0], { timeoutMs: 30_000, what: `the signed generation.completed of ${jobId}` }),
    };

    it.each(FAKE_BACKEND_ROUTES)('%s (%s): the asset holds the backend\'s bytes, generation.completed is signed', async (engine) => {
      const c = fakes.cases.find((x) => x.engine === engine)!;
      const picture = `data:image/png;base64,${(await png(16, 16, 3)).toString('base64')}`;
      const run = await generateOnBackend(c, picture, client);
      expect(run.job.metadata.output).toMatchObject({ engine: c.engine, backend: c.backend });
      expect(c.served().some((served) => served.equals(run.bytes))).toBe(true);
      expect(run.asset.metadata).toMatchObject({ engine: c.engine, ...c.metadata });
      // The ledger verified the signature with the endpoint's secret (a failure would be in ledger.rejected).
      expect(run.event).toMatchObject({ type: 'generation.completed', data: { jobId: run.job.jobId } });
    });
  });

  describe('drills: nothing is lost', () => {
    it('two dispatcher replicas share the deliveries, none delivered twice', async () => {
      const { jobIds, sentAt } = await burst(16);
      const tally = await ledger.settle(jobIds, GENERATION, 120_000);
      const latencies = deliveryLatencies(jobIds, sentAt);
      record(
        `two replicas, 16 generations: ${tallyText(tally, replicaNames())}; request → generation.completed p50 ${percentile(latencies, 50)} ms, max ${Math.max(...latencies)} ms`,
      );
      expect(tally).toMatchObject({ lost: 0, duplicates: 0, delivered: 32 });
      expect(await jobStatuses(jobIds)).toEqual({ success: 16 });
      // Both replicas sent some (attributed through /proc where the machine has one).
      const [first, second] = dispatchers().map((d) => tally.byPid.get(d.proc.child.pid) ?? 0);
      if (!tally.byPid.has(undefined)) {
        expect(first).toBeGreaterThan(0);
        expect(second).toBeGreaterThan(0);
      }
    });

    it('a dispatcher SIGTERMed under load drains, exits 0 and loses nothing', async () => {
      ledger.delayMs = 300;
      const before = ledger.deliveries.length;
      const { jobIds } = await burst(20);
      await waitFor(() => ledger.deliveries.length - before >= 8, { timeoutMs: 120_000, intervalMs: 100, what: '10 deliveries of the burst' });
      const victim = dispatchers()[1];
      sigtermed = victim;
      const signalled = Date.now();
      const code = await victim.proc.kill('SIGTERM');
      const drainMs = Date.now() - signalled;
      const tally = await ledger.settle(jobIds, GENERATION, 120_000);
      ledger.delayMs = 0;
      record(`SIGTERM of ${victim.label} under load (20 generations, 300 ms receiver): exit ${code} after ${drainMs} ms; ${tallyText(tally, replicaNames())}`);
      expect(code).toBe(0);
      expect(tally).toMatchObject({ lost: 0, duplicates: 0, delivered: 40 });
      expect(await jobStatuses(jobIds)).toEqual({ success: 20 });
    });

    (brokerControl.available() ? it : it.skip)('the brokers down for 30 s: requests are accepted meanwhile, and every webhook arrives after', async () => {
      const downAt = Date.now();
      await brokerControl.down();
      let upAt = 0;
      try {
        const { jobIds } = await burst(10);
        const accepted = Date.now() - downAt;
        await waitFor(async () => !(await stack.allReady()), { timeoutMs: 30_000, intervalMs: 500, what: 'readiness to report the broker down' }).catch(() => undefined);
        const notReady = !(await stack.allReady());
        const deliveredDuring = jobIds.flatMap((id) => ledger.of(id, 'generation.completed')).length;
        await new Promise((r) => setTimeout(r, Math.max(0, 30_000 - (Date.now() - downAt))));
        await brokerControl.up();
        upAt = Date.now();
        const tally = await ledger.settle(jobIds, GENERATION, 150_000);
        const recoveredMs = Math.max(...jobIds.flatMap((id) => ledger.of(id, 'generation.completed').map((d) => d.receivedAt))) - upAt;
        await waitFor(() => stack.allReady(), { timeoutMs: 120_000, intervalMs: 500, what: 'every /readyz after the broker outage' });
        const readyMs = Date.now() - upAt;
        record(
          `brokers down ${((upAt - downAt) / 1000).toFixed(1)} s: 10 generations accepted (all 200) within ${accepted} ms, ${deliveredDuring} completed during the outage, ` +
            `readiness ${notReady ? 'went red' : 'stayed green'}; after up: every webhook in ${recoveredMs} ms, every /readyz green in ${readyMs} ms; ${tallyText(tally)}`,
        );
        expect(tally).toMatchObject({ lost: 0, duplicates: 0, delivered: 20 });
        expect(await jobStatuses(jobIds)).toEqual({ success: 10 });
        // Consumer groups resume once their members' old sessions have run out (KAFKA_SESSION_TIMEOUT,
        // 10 s by default): about 4 s here, 30 s with kafkajs' own default.
        expect(recoveredMs).toBeLessThan(25_000);
      } finally {
        if (!upAt) await brokerControl.up();
      }
    });

    const pg = postgresControl();
    (pg ? it : it.skip)('PostgreSQL restarted: the services reconnect, and nothing in flight or sent after is lost', async () => {
      const first = await burst(10);
      await waitFor(() => first.jobIds.some((id) => ledger.of(id, 'generation.created').length), { timeoutMs: 60_000, intervalMs: 100, what: 'the first webhook of the burst' });
      const stoppedAt = Date.now();
      await pg!.stop();
      try {
        await new Promise((r) => setTimeout(r, 5_000));
      } finally {
        // Whatever happens, the shared test server is back for the teardown.
        await pg!.start();
      }
      const backAt = Date.now();
      // The first request answered through the gateway, on every service's database path.
      await waitFor(async () => (await stack.request('GET', `/v1/jobs/${first.jobIds[0]}`, { auth: tenant.member })).status === 200, {
        timeoutMs: 90_000,
        intervalMs: 250,
        what: 'a job read through the gateway after the restart',
      });
      const apiMs = Date.now() - backAt;
      await waitFor(() => stack.allReady(), { timeoutMs: 120_000, intervalMs: 500, what: 'every /readyz after the PostgreSQL restart' });
      const readyMs = Date.now() - backAt;
      const second = await burst(10);
      const jobIds = [...first.jobIds, ...second.jobIds];
      const tally = await ledger.settle(jobIds, GENERATION, 150_000);
      const doneMs = Math.max(...jobIds.flatMap((id) => ledger.of(id, 'generation.completed').map((d) => d.receivedAt))) - backAt;
      record(
        `PostgreSQL down ${((backAt - stoppedAt) / 1000).toFixed(1)} s (fast stop, 5 s, start): API answered again ${apiMs} ms after it was back, every /readyz green after ${readyMs} ms, ` +
          `every webhook (10 in flight + 10 sent after) ${doneMs} ms after; ${tallyText(tally)}`,
      );
      // Runs the restart caught write their results once the database is back (the worker tries again while
      // its claim lasts) instead of waiting for their INFERENCE_LEASE (60 s) to lapse: about 6 s here.
      expect(doneMs).toBeLessThan(30_000);
      expect(tally).toMatchObject({ lost: 0, delivered: 40 });
      // At-least-once: an attempt whose record was cut by the restart may be sent again; nothing else.
      expect(tally.duplicates).toBeLessThanOrEqual(10);
      expect(await jobStatuses(jobIds)).toEqual({ success: 20 });
      expect(stack.instances.filter((i) => i.label !== 'webhook-dispatcher#2').every(live)).toBe(true);
    });
  });
});
