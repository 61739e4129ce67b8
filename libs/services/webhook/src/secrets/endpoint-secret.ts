import { randomBytes } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';

/** `whsec_` + 32 random bytes (base64url, 43 characters): what receivers key their HMAC with. */
export function newEndpointSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
}
