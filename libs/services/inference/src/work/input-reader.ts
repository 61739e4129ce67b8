import { Inject, Injectable } from '@nestjs/common';
import { ASSETS_API, InternalApiError, type AssetsApi, type JobTenantData } from '@genasset/contracts';
import { OBJECT_STORE, ObjectNotFoundError, type ObjectStore } from '@genasset/storage';
import { EngineError, type InputImage } from '../engines/engine';
import { STORED_INPUT_PREFIX } from '../engines/http/image-references';
import { InputCache } from './input-cache';
import { TransientError } from './transient-error';

const ASSET_ID = /^asset_[0-9A-Za-z]{1,64}$/;
/** Largest input object read into memory. */
const MAX_INPUT_BYTES = 256 * 1024 * 1024;
/** Bytes of recently read inputs kept in memory (see InputCache); objects above a quarter of it are not kept. */
const INPUT_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * Reads a job's inputs from object storage (claim check): an asset id is
 * resolved to its original object by asset-service (AssetsApi.objects, scoped
 * to the job's project); a stored-input key is read directly, and only when it
 * lies under the job's project. An input read before is served from memory:
 * an asset's object whenever asset-service still names it (an asset's objects
 * are written once, under fresh keys, so the name is the version), a stored
 * input while storage still holds the same version of it (one HEAD instead of
 * reading the object again).
 */
@Injectable()
export class InputReader {
  private readonly cache = new InputCache(INPUT_CACHE_BYTES);

  constructor(
    @Inject(ASSETS_API) private readonly assets: AssetsApi,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
  ) {}

  /** A reader for one job, remembering what it read (an image used twice is fetched once). */
  forJob(tenant: JobTenantData): (reference: unknown, field: string) => Promise<InputImage> {
    const cache = new Map<string, Promise<InputImage>>();
    return (reference, field) => {
      if (typeof reference !== 'string' || reference === '')
        return Promise.reject(new EngineError(`${field} is required`));
      const key = reference;
      let read = cache.get(key);
      if (!read) {
        read = this.read(tenant, reference, field);
        cache.set(key, read);
        read.catch(() => cache.delete(key));
      }
      return read.then((image) => ({ ...image, field }));
    };
  }

  private async read(tenant: JobTenantData, reference: string, field: string): Promise<InputImage> {
    if (ASSET_ID.test(reference)) {
      let objects;
      try {
        objects = await this.assets.objects(tenant, [reference]);
      } catch (error) {
        const reason =
          error instanceof InternalApiError && error.status === 503
            ? 'asset-service is not reachable from the inference worker'
            : 'asset-service could not be asked for the input';
        throw new TransientError(reason, error);
      }
      const object = objects.find((o) => o.assetId === reference);
      if (!object)
        throw new EngineError(`${field}: asset ${reference} does not exist in the project (was it deleted?)`);
      const bytes = await this.bytes(
        object.key,
        `${field}: the content of asset ${reference} is missing from storage`,
        { writtenOnce: true },
      );
      return { bytes, mimeType: object.mimeType, assetId: reference, field };
    }
    if (reference.startsWith(STORED_INPUT_PREFIX)) {
      if (!reference.startsWith(`${STORED_INPUT_PREFIX}${tenant.projectId}/`))
        throw new EngineError(`${field} refers to an input of another project`);
      const object = await this.get(reference, `${field}: the uploaded input has expired or was deleted`);
      return { bytes: object.bytes, mimeType: object.contentType, field };
    }
    throw new EngineError(`${field} is neither an asset id nor an uploaded input`);
  }

  private async bytes(key: string, missing: string, options: { writtenOnce?: boolean } = {}): Promise<Buffer> {
    return (await this.get(key, missing, options)).bytes;
  }

  private async get(
    key: string,
    missing: string,
    options: { writtenOnce?: boolean } = {},
  ): Promise<{ bytes: Buffer; contentType: string }> {
    if (options.writtenOnce) {
      const kept = this.cache.getWrittenOnce(key);
      if (kept) return kept;
    } else if (this.cache.has(key)) {
      let current;
      try {
        current = await this.store.head(key);
      } catch (error) {
        throw new TransientError('object storage could not be read', error);
      }
      if (!current) throw new EngineError(missing);
      const cached = this.cache.get(key, current);
      if (cached) return cached;
    }
    let object;
    try {
      object = await this.store.get(key);
    } catch (error) {
      if (error instanceof ObjectNotFoundError) throw new EngineError(missing);
      throw new TransientError('object storage could not be read', error);
    }
    if (object.contentLength > MAX_INPUT_BYTES) {
      object.body.destroy();
      throw new EngineError(
        `an input is ${object.contentLength} bytes; the worker reads at most ${MAX_INPUT_BYTES}`,
      );
    }
    const chunks: Buffer[] = [];
    for await (const chunk of object.body) chunks.push(chunk as Buffer);
    const bytes = Buffer.concat(chunks);
    this.cache.set(key, object, bytes);
    return { bytes, contentType: object.contentType };
  }
}
