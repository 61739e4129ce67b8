import { randomBytes } from 'node:crypto';
import { sign } from '@genasset/webhooks';
import { Pool } from 'undici';

/**
 * The ceiling: bare signed POSTs of a delivery's size and headers, from undici
 * with `connections` keep-alive sockets to the same receiver — no database, no
 * broker. Measured after a warm-up, as the dispatcher's pool is warm too.
 */
export async function measureBaseline(
  url: string,
  requests: number,
  connections: number,
): Promise<{ perSecond: number; ms: number }> {
  const target = new URL(url);
  const pool = new Pool(target.origin, { connections, pipelining: 1, keepAliveTimeout: 30_000 });
  const secret = `whsec_${randomBytes(32).toString('base64url')}`;
  const post = async (i: number) => {
    const body = Buffer.from(
      JSON.stringify({
        id: `whevent_baseline${i}`,
        type: 'generation.completed',
        data: { jobId: `job_baseline${i}`, jobType: 'inference' },
      }),
    );
    const response = await pool.request({
      path: target.pathname,
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': 'Service-Webhooks/2.0',
        'X-SERVICE-SIGNATURE': sign(body, secret, Date.now()),
      },
      body,
    });
    await response.body.dump();
    if (response.statusCode !== 200) throw new Error(`baseline: receiver answered ${response.statusCode}`);
  };
  const run = async (count: number) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (next < count) await post(next++);
      }),
    );
  };
  await run(connections * 20);
  const started = Date.now();
  await run(requests);
  const ms = Date.now() - started;
  await pool.close();
  return { perSecond: Math.round((requests / ms) * 1000), ms };
}
