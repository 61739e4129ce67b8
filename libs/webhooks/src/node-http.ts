import type { IncomingMessage } from 'node:http';
import { RawBodyTooLargeError, WebhookConfigurationError } from './errors';

export interface ReadRawBodyOptions {
  /** Stop reading and reject with `RawBodyTooLargeError` (statusCode 413) beyond this size. Default 1 MiB. */
  limitBytes?: number;
}

export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * Reads a Node `http` request body into one Buffer, byte for byte, for `verify()`.
 *
 * On `RawBodyTooLargeError` the stream is paused, not drained: answer 413 with
 * `Connection: close` so Node drops the rest instead of reading it.
 */
export function readRawBody(req: IncomingMessage, options: ReadRawBodyOptions = {}): Promise<Buffer> {
  const limitBytes = options.limitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  if (!(limitBytes >= 0)) return Promise.reject(new RangeError(`limitBytes must be >= 0, got ${limitBytes}`));
  if (req.readableEnded || req.readableDidRead) {
    return Promise.reject(
      new WebhookConfigurationError(
        'the request body was already read (by a body parser?): the raw bytes are gone',
      ),
    );
  }
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limitBytes) {
    req.pause();
    return Promise.reject(new RawBodyTooLargeError(limitBytes));
  }

  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const fail = (error: Error) => {
      cleanup();
      reject(error);
    };
    const onData = (chunk: Buffer | string) => {
      // setEncoding() turns chunks into strings; turn them back with that same encoding.
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, req.readableEncoding ?? 'utf8') : chunk;
      size += bytes.length;
      if (size > limitBytes) {
        req.pause();
        fail(new RawBodyTooLargeError(limitBytes));
        return;
      }
      chunks.push(bytes);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => fail(error);
    const onClose = () => {
      if (!req.complete) fail(new Error('the request was aborted before its body was complete'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}
