import { Controller, Get, HttpStatus, Inject, Req, Res, StreamableFile } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, PublicRoute } from '@genasset/http';
import { attachmentDisposition } from '../response-headers';
import { ObjectNotFoundError } from '../storage.errors';
import type { ObjectStore } from '../object-store';
import { OBJECT_STORE } from '../storage.tokens';
import { keyFromUrl, type Query, single } from './files-url';
import { FilesystemObjectStore } from './filesystem-object-store';

/**
 * Serves the filesystem store's signed URLs (`GET /v1/files/<key>?expires=&signature=`),
 * the embedded-mode stand-in for S3 presigned URLs. The signature is the only
 * credential, so no API auth applies; it is not part of the documented API.
 */
@ApiExcludeController()
@PublicRoute()
@Controller('files')
export class FilesController {
  constructor(@Inject(OBJECT_STORE) private readonly store: ObjectStore) {}

  @Get('*')
  async download(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<StreamableFile> {
    if (!(this.store instanceof FilesystemObjectStore)) throw ApiError.notFound('File');
    const key = keyFromUrl(request.url);
    const query = request.query as Query;
    const expires = single(query.expires);
    const signature = single(query.signature);
    const downloadName = single(query.name);
    const contentType = single(query.type);
    if (
      key === undefined ||
      expires === undefined ||
      signature === undefined ||
      !/^\d{1,12}$/.test(expires)
    ) {
      throw ApiError.forbidden('Invalid file signature');
    }
    const check = this.store.verifySignature(
      { key, expires: Number(expires), downloadName, contentType },
      signature,
    );
    if (check === 'invalid') throw ApiError.forbidden('Invalid file signature');
    if (check === 'expired') throw ApiError.forbidden('File link has expired');

    let object;
    try {
      object = await this.store.get(key);
    } catch (error) {
      if (error instanceof ObjectNotFoundError) throw ApiError.notFound('File');
      throw error;
    }
    const maxAge = Math.max(0, Number(expires) - Math.floor(Date.now() / 1000));
    void reply
      .status(HttpStatus.OK)
      .header('content-type', contentType ?? object.contentType)
      .header('content-length', String(object.contentLength))
      .header('cache-control', `private, max-age=${maxAge}`)
      // User-supplied bytes served from the API's origin must never run as a page.
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox");
    if (downloadName !== undefined)
      void reply.header('content-disposition', attachmentDisposition(downloadName));
    return new StreamableFile(object.body);
  }
}
