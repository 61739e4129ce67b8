import { createHmac, timingSafeEqual } from 'node:crypto';

/** Replicate's webhook timestamps are honoured this long either side of now (Standard Webhooks suggests 5 minutes). */
export const TOLERANCE_S = 300;

/**
 * Checks a Standard Webhooks signature (standardwebhooks.com; Replicate signs its webhooks so):
 * `webhook-signature` holds space-separated `v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>`
 * under the base64 key after `whsec_`. Hand-written rather than the `standardwebhooks` package:
 * it is this one HMAC with node:crypto, where the package carries its own JS SHA-256 and base64.
 * Returns why it fails, or undefined when it holds.
 */
export function standardWebhookProblem(
  headers: Record<string, string | string[] | undefined>,
  body: Buffer,
  secret: string,
  nowS = Math.floor(Date.now() / 1000),
): string | undefined {
  const one = (name: string) => {
    const value = headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const id = one('webhook-id');
  const timestamp = one('webhook-timestamp');
  const signatures = one('webhook-signature');
  if (!id || !timestamp || !signatures) return 'the webhook-id, webhook-timestamp and webhook-signature headers are required';
  if (!/^\d{1,12}$/.test(timestamp)) return 'webhook-timestamp is not a number of seconds';
  if (Math.abs(nowS - Number(timestamp)) > TOLERANCE_S) return `webhook-timestamp is more than ${TOLERANCE_S} s away from now`;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest();
  const match = signatures.split(' ').some((entry) => {
    const [version, value] = entry.split(',', 2);
    if (version !== 'v1' || !value) return false;
    const given = Buffer.from(value, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  return match ? undefined : 'webhook-signature does not match';
}
