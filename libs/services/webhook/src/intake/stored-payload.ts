import type { EventBody } from '../event-catalog';

/**
 * The text stored in the payload column: the body's JSON in the order the
 * workers send it (`{id, type, data, ...rest}`, dispatch/delivery-body.ts).
 * The column is `json`, which keeps text verbatim, so the delivery log shows
 * the bytes receivers got.
 */
export function storedPayload({ id, type, data, ...rest }: EventBody): string {
  return JSON.stringify({ id, type, data, ...rest });
}
