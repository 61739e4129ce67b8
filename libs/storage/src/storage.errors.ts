/** Thrown by `get` (and the file route) when a key has no object. */
export class ObjectNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`object not found: ${key}`);
    this.name = 'ObjectNotFoundError';
  }
}

/** A key that could escape the store or that the store cannot represent. */
export class InvalidObjectKeyError extends Error {
  constructor(
    readonly key: string,
    reason: string,
  ) {
    super(`invalid object key ${JSON.stringify(key.slice(0, 200))}: ${reason}`);
    this.name = 'InvalidObjectKeyError';
  }
}

/** A body whose size differs from the declared content length; nothing was stored. */
export class ContentLengthMismatchError extends Error {
  constructor(
    readonly expected: number,
    readonly actual: number,
  ) {
    super(`declared content length ${expected} but received ${actual} bytes`);
    this.name = 'ContentLengthMismatchError';
  }
}

/** What was wrong with a multipart upload; the names are S3's error codes, which both stores use. */
export type MultipartErrorCode = 'NoSuchUpload' | 'InvalidPart' | 'InvalidPartOrder' | 'EntityTooSmall';

/**
 * A multipart upload the store refuses to complete (or no longer knows): the
 * client's part list or the parts it uploaded are wrong. Callers answer it as
 * a client error; anything else the store throws is the store's fault.
 */
export class MultipartUploadError extends Error {
  constructor(
    readonly code: MultipartErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'MultipartUploadError';
  }
}
