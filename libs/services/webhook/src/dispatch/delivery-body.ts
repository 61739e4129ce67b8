/**
 * The bytes of a delivery: `{id, type, data, version?}` as compact JSON, the
 * spec's fields first in a fixed order, so every attempt of one delivery
 * sends (and signs) the same bytes. Returns a reason instead when the stored
 * payload cannot be delivered (a service-side error, recorded as -1).
 */
export function deliveryBody(
  deliveryId: string,
  payload: unknown,
): { ok: true; bytes: Buffer } | { ok: false; reason: string } {
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
