import { randomBytes } from 'node:crypto';
import type { DatabaseConnection } from '@genasset/persistence';
import { SecretBox } from '../../../secrets/secret-box';

/**
 * Test data for the delivery worker, written straight into the webhooks schema
 * (the management API and the intake are other features; these tests exercise
 * what happens from a delivery row onwards).
 */

/** A fixed key so the test process can seal secrets the dispatcher opens. */
export const TEST_SECRET_KEY = Buffer.alloc(32, 7).toString('base64');
const box = new SecretBox(Buffer.from(TEST_SECRET_KEY, 'base64'));

const id = (prefix: string) => `${prefix}${randomBytes(10).toString('hex')}`;

export interface TestEndpoint {
  id: string;
  secret: string;
  url: string;
}

export async function createEndpoint(
  db: DatabaseConnection,
  options: { url: string; enabled?: boolean; secretCiphertext?: string },
): Promise<TestEndpoint> {
  const endpoint = {
    id: id('we_'),
    secret: `whsec_${randomBytes(24).toString('base64url')}`,
    url: options.url,
  };
  await db.query(
    `INSERT INTO webhooks.webhook_endpoints (id, owner_type, owner_id, team_id, url, enabled_events, enabled, secret_ciphertext)
     VALUES ($1, 'project', $2, $3, $4, ARRAY['*'], $5, $6)`,
    [
      endpoint.id,
      id('proj_'),
      id('team_'),
      options.url,
      options.enabled ?? true,
      options.secretCiphertext ?? box.seal(endpoint.secret),
    ],
  );
  return endpoint;
}

/** Queues deliveries as the intake does (status created, due now) and wakes the workers. */
export async function enqueue(
  db: DatabaseConnection,
  endpointId: string,
  count = 1,
  options: { type?: string; data?: Record<string, unknown>; payload?: (id: string) => unknown } = {},
): Promise<string[]> {
  const ids = Array.from({ length: count }, () => id('whevent_'));
  const type = options.type ?? 'generation.completed';
  const payloads = ids.map((deliveryId) =>
    JSON.stringify(
      options.payload
        ? options.payload(deliveryId)
        : {
            id: deliveryId,
            type,
            data: options.data ?? { jobId: `job_${deliveryId.slice(8)}`, jobType: 'inference' },
          },
    ),
  );
  await db.query(
    `INSERT INTO webhooks.webhook_deliveries (id, endpoint_id, source_event_id, type, payload, status, next_attempt_at)
     SELECT d.id, $2, 'evt_' || d.id, $3, d.payload::jsonb, 'created', now()
       FROM unnest($1::text[], $4::text[]) AS d(id, payload)`,
    [ids, endpointId, type, payloads],
  );
  await db.query(`SELECT pg_notify('webhooks_deliveries', '')`);
  return ids;
}

export interface StoredDelivery {
  id: string;
  status: string;
  attempt_count: number;
  next_attempt_at: Date | null;
  lease_until: Date | null;
  sent_at: Date | null;
  attempts: { response_status_code: number; sent_at: Date; duration_ms: number; error: string | null }[];
}

/** A delivery as stored, its `attempts` entries (oldest first) in the shape the tests read. */
export async function stored(db: DatabaseConnection, deliveryId: string): Promise<StoredDelivery> {
  type Entry = { responseStatusCode: number; sentAt: string; durationMs: number; error: string | null };
  const [delivery] = await db.query<Omit<StoredDelivery, 'attempts'> & { attempts: Entry[] }>(
    `SELECT id, status, attempt_count, next_attempt_at, lease_until, sent_at, attempts FROM webhooks.webhook_deliveries WHERE id = $1`,
    [deliveryId],
  );
  if (!delivery) throw new Error(`delivery ${deliveryId} does not exist`);
  return {
    ...delivery,
    attempts: delivery.attempts.map((a) => ({
      response_status_code: a.responseStatusCode,
      sent_at: new Date(a.sentAt),
      duration_ms: a.durationMs,
      error: a.error,
    })),
  };
}

export async function counters(
  db: DatabaseConnection,
  endpointId: string,
): Promise<{ total: number; failed: number }> {
  const [row] = await db.query<{ total: number; failed: number }>(
    `SELECT nb_total_calls AS total, nb_failed_calls AS failed FROM webhooks.webhook_endpoints WHERE id = $1`,
    [endpointId],
  );
  return row;
}

export async function statusCounts(
  db: DatabaseConnection,
  ids: readonly string[],
): Promise<Record<string, number>> {
  const rows = await db.query<{ status: string; n: number }>(
    `SELECT status, count(*)::int AS n FROM webhooks.webhook_deliveries WHERE id = ANY ($1::text[]) GROUP BY status`,
    [ids],
  );
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

/** The timestamp part of an X-SERVICE-SIGNATURE header. */
export function signedAt(header: string | string[] | undefined): number {
  return Number(String(header).split('.')[0]);
}
