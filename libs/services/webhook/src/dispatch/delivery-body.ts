/**
 * The bytes of a delivery: `{id, type, data, version?}` as compact JSON, the
 * spec's fields first in a fixed order, so every attempt of one delivery
 * sends (and signs) the same bytes. Returns a reason instead when the stored
 * payload cannot be delivered (a service-side error, recorded as -1).
 *
 * `stored` is the payload column's text. The intake stores eventBody's JSON
 * (the json type keeps it verbatim), which starts with this delivery's id and
 * then its type: that text is sent as it is, with no parse and no
 * re-serialisation. Any other text (rows written before the column kept the
 * intake's key order) is parsed and written in the canonical order.
 */
export function deliveryBody(
  /** The id the body carries: the delivery's own, or for a resend the event's first delivery's. */
  deliveryId: string,
  stored: unknown,
): { ok: true; bytes: Buffer } | { ok: false; reason: string } {
  let payload = stored;
  if (typeof stored === 'string') {
    if (startsAsStored(stored, deliveryId) && stored.endsWith('}'))
      return { ok: true, bytes: Buffer.from(stored, 'utf8') };
    try {
      payload = JSON.parse(stored);
    } catch {
      return { ok: false, reason: 'payload is not JSON' };
    }
  }
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
    return { ok: false, reason: 'payload is not a JSON object' };
  }
  const { id, type, data, ...rest } = payload as Record<string, unknown>;
  if (id !== deliveryId)
    return {
      ok: false,
      reason: `payload id ${JSON.stringify(id)} does not match the delivery ${deliveryId}`,
    };
  if (typeof type !== 'string' || type === '') return { ok: false, reason: 'payload has no type' };
  if (data === null || typeof data !== 'object' || Array.isArray(data))
    return { ok: false, reason: 'payload data is not an object' };
  return { ok: true, bytes: Buffer.from(JSON.stringify({ id, type, data, ...rest }), 'utf8') };
}

/** Ids that JSON writes as they are (ours: `whevent_` and a ULID); any other goes the long way. */
const PLAIN_ID = /^[\w-]+$/;

/** `stored` starts `{"id":"<deliveryId>","type":"`, checked in place (this runs once per attempt). */
function startsAsStored(stored: string, deliveryId: string): boolean {
  if (!PLAIN_ID.test(deliveryId)) return stored.startsWith(`{"id":${JSON.stringify(deliveryId)},"type":"`);
  return (
    stored.startsWith('{"id":"') &&
    stored.startsWith(deliveryId, 7) &&
    stored.startsWith('","type":"', 7 + deliveryId.length)
  );
}
