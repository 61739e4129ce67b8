/**
 * Input rules of the collection routes, in one place so validation, docs and
 * tests agree. Where the spec is silent the upstream reference decides.
 */
export const COLLECTION_LIMITS = {
  /** GET /collections: spec "pageSize default 10, min 1, max 100". */
  pageSize: { default: 10, min: 1, max: 100 },
  /** Ids per add/remove call: the upstream documents "Max 49 at once" on all four routes. */
  idsPerCall: 49,
  /** Collection names: not limited upstream; bounded so a name stays a label. */
  nameMaxLength: 256,
} as const;

/** A name must hold a non-space character (checked by the pipe, documented as `pattern`). */
export const NOT_BLANK = /\S/;

/** Id shapes. Asset ids follow the asset fact contract; others are `<prefix>_` + ULID/base62. */
export const ID_PATTERNS = {
  collection: /^collection_[0-9A-Za-z]{1,64}$/,
  asset: /^asset_[0-9A-Za-z]{1,64}$/,
  model: /^model_[0-9A-Za-z]{1,64}$/,
  project: /^proj_[0-9A-Z]{26}$/,
} as const;
