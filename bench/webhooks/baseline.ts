import { randomBytes } from 'node:crypto';
import { sign } from '@genasset/webhooks';
import { Pool } from 'undici';

/**
 * The ceiling: bare signed POSTs of a delivery's size and headers, from undici
 * with `connections` keep-alive sockets to the same receiver — no database, no
 * broker. Measured after a warm-up, as the dispatcher's pool is warm too. Sent
 * through `dispatch` with a bare handler, the leaner undici API the
 * dispatcher's sender uses too, so neither side of the ratio gets a cheaper
 * client than the other.
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
    const statusCode = await new Promise<number>((resolve, reject) => {
      let status = 0;
      pool.dispatch(
        {
          path: target.pathname,
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            'User-Agent': 'Service-Webhooks/2.0',
            'X-SERVICE-SIGNATURE': sign(body, secret, Date.now()),
          },
          body,
        },
        {
          // undici takes a handler for its current API only when it has onRequestStart.
          onRequestStart: () => undefined,
          onResponseStart: (_controller, code) => void (status = code),
          onResponseEnd: () => resolve(status),
          onResponseError: (_controller, error) => reject(error),
        },
      );
    });
    if (statusCode !== 200) throw new Error(`baseline: receiver answered ${statusCode}`);
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
