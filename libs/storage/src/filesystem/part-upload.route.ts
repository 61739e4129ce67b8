import { Readable } from 'node:stream';
import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, renderErrorBody } from '@genasset/http';
import type { ObjectStore } from '../object-store';
import { InvalidObjectKeyError, MultipartUploadError } from '../storage.errors';
import { OBJECT_STORE } from '../storage.tokens';
import { keyFromUrl, type Query, single } from './files-url';
import { PartTooLargeError } from './filesystem-multipart';
import { FilesystemObjectStore } from './filesystem-object-store';

/**
 * `PUT /v1/files/<key>?uploadId=&partNumber=&expires=&max=&signature=`: the
 * filesystem store's stand-in for S3's presigned UploadPart. The signature is
 * the only credential (no API auth), and it binds the key, upload, part
 * number, size limit and expiry. Answers 200 with the part's `ETag` header,
 * as S3 does, or the error body: 403 (signature), 404 (unknown upload), 413
 * (over the signed limit, checked on Content-Length first, then while
 * streaming).
 *
 * Registered on Fastify directly, in a scope of its own, rather than as a Nest
 * route: the body must reach the disk as a stream whatever its content type
 * (a glTF part sent as application/json must not be parsed), and Fastify's
 * content-type parsers are per scope, so this scope takes every type raw
 * while the API's own parsers and body limits stay as they are everywhere else.
 */
@Injectable()
export class PartUploadRoute implements OnModuleInit {
  private readonly logger = new Logger(PartUploadRoute.name);

  constructor(
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  onModuleInit(): void {
    const store = this.store;
    // No HTTP server (an application context, a worker): no route to add.
    const adapter = this.adapterHost.httpAdapter as HttpAdapterHost['httpAdapter'] | undefined;
    if (!(store instanceof FilesystemObjectStore) || !adapter) return;
    const fastify = adapter.getInstance<FastifyInstance>();
    void fastify.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      // The raw stream, unread: the handler streams it to disk under its own limit.
      scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
      scope.put(`${store.filesPath}/*`, (request, reply) => this.receive(store, request, reply));
    });
  }

  private async receive(
    store: FilesystemObjectStore,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<void> {
    const body = (request.body as Readable | undefined) ?? Readable.from([]);
    try {
      const { key, uploadId, partNumber, maxBytes } = this.authorise(store, request);
      const declared = Number(request.headers['content-length']);
      if (declared > maxBytes) throw new PartTooLargeError(maxBytes);
      const { etag } = await store.receivePart(key, uploadId, partNumber, body, maxBytes);
      await reply.code(200).header('etag', etag).send();
    } catch (error) {
      const refusal = toRefusal(error);
      if (!refusal)
        this.logger.error(`part upload failed: ${error instanceof Error ? error.stack : String(error)}`);
      const apiError = refusal ?? ApiError.internal(error);
      // The rest of a refused body is not read: close the connection rather than drain it.
      if (!body.readableEnded) void reply.header('connection', 'close');
      await reply.code(apiError.getStatus()).send(renderErrorBody(apiError));
    }
  }

  private authorise(
    store: FilesystemObjectStore,
    request: FastifyRequest,
  ): { key: string; uploadId: string; partNumber: number; maxBytes: number } {
    const query = request.query as Query;
    const key = keyFromUrl(request.url);
    const [uploadId, partNumber, expires, max, signature] = [
      'uploadId',
      'partNumber',
      'expires',
      'max',
      'signature',
    ].map((name) => single(query[name]));
    if (
      key === undefined ||
      uploadId === undefined ||
      signature === undefined ||
      !/^\d{1,5}$/.test(partNumber ?? '') ||
      !/^\d{1,12}$/.test(expires ?? '') ||
      !/^\d{1,13}$/.test(max ?? '')
    )
      throw ApiError.forbidden('Invalid file signature');
    const part = { uploadId, partNumber: Number(partNumber), maxBytes: Number(max) };
    const check = store.verifySignature({ key, expires: Number(expires), part }, signature);
    if (check === 'invalid') throw ApiError.forbidden('Invalid file signature');
    if (check === 'expired') throw ApiError.forbidden('Upload link has expired');
    return { key, ...part };
  }
}

function toRefusal(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (error instanceof PartTooLargeError)
    return ApiError.payloadTooLarge(`${error.message}: upload the file in the parts the upload describes`, {
      limit: error.limit,
    });
  if (error instanceof MultipartUploadError) return ApiError.notFound('Upload');
  if (error instanceof InvalidObjectKeyError) return ApiError.notFound('Upload');
  return undefined;
}
