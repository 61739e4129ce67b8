/** Thrown by `get` (and the file route) when a key has no object. */
export class ObjectNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`object not found: ${key}`);
    this.name = 'ObjectNotFoundError';
  }
}

/** The adapter cannot do this (multipart presigning on the filesystem store). */
export class NotSupportedError extends Error {
  constructor(operation: string, adapter: string) {
    super(`${operation} is not supported by the ${adapter} object store`);
    this.name = 'NotSupportedError';
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
