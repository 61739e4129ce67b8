export const AUTH_OPTIONS = Symbol('AUTH_OPTIONS');

export interface AuthOptions {
  /** Also accept `Authorization: public-auth-token` (spec: only GET /assets and GET /assets/{id}). */
  publicAccess?: boolean;
}
