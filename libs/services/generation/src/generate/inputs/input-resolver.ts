import { Inject, Injectable, Logger } from '@nestjs/common';
import { ulid } from 'ulid';
import { ASSETS_API, type AssetsApi, type TenantRef } from '@genasset/contracts';
import { ApiError } from '@genasset/http';
import { OBJECT_STORE, type ObjectStore } from '@genasset/storage';
import { publicError } from '../internal-errors';
import { decodeAnyDataUrl, decodeImageDataUrl, type DecodedInput } from './data-url';
import type { ImageInput } from './image-inputs';

/** Key prefix of claim-checked inputs; an executor tells them from asset ids (`asset_…`) by it. */
export const STORED_INPUT_PREFIX = 'generation-inputs/';

/** The pixel size of one image input (what pricing reads). */
export interface InputSize {
  path: string;
  width: number;
  height: number;
}

export interface ResolvedInputs {
  inputs: ImageInput[];
  /** The data URLs, decoded (not stored yet). */
  decoded: DecodedInput[];
  /** Image inputs of known size: data URLs (their header) and assets (asset-service's record). */
  sizes: InputSize[];
}

/**
 * Turns the image references of a request into what an executor can use:
 * asset ids are checked to be the caller project's (404 naming the first
 * foreign or missing one) in one lookup, which also brings their kind (an
 * image field takes image assets only: 400 naming it otherwise) and pixel
 * sizes for pricing; data URLs are decoded and checked, then — for a
 * real run only — stored in object storage (claim check), their keys replacing
 * them in the job input, so no image bytes ride in a job message.
 */
@Injectable()
export class InputResolver {
  private readonly logger = new Logger(InputResolver.name);

  constructor(
    @Inject(ASSETS_API) private readonly assets: AssetsApi,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
  ) {}

  async resolve(tenant: TenantRef, inputs: ImageInput[]): Promise<ResolvedInputs> {
    const decoded: DecodedInput[] = [];
    for (const input of inputs) {
      if (input.kind !== 'data-url') continue;
      decoded.push(
        input.accepts === 'any-data-url'
          ? decodeAnyDataUrl(input.value, input.path)
          : await decodeImageDataUrl(input.value, input.path),
      );
    }
    const sizes = decoded.flatMap(({ path, width, height }) =>
      width && height ? [{ path, width, height }] : [],
    );
    const assetIds = [...new Set(inputs.filter((i) => i.kind === 'asset').map((i) => i.value))];
    if (assetIds.length > 0) {
      const objects = new Map(
        (
          await this.assets
            .objects(tenant, assetIds)
            .catch((error: unknown) => Promise.reject(publicError(error)))
        ).map((o) => [o.assetId, o]),
      );
      for (const input of inputs) {
        if (input.kind !== 'asset') continue;
        const object = objects.get(input.value);
        if (!object) {
          throw new ApiError(404, 'not_found', `Asset ${input.value} not found (${input.path})`, {
            id: input.value,
            field: input.path,
          });
        }
        // An image field given a canvas (JSON), a video, a 3D file or an HDR map would be charged
        // and then fail in the worker ("not a readable image"): refused here, naming the field.
        if (!input.anyMedia && object.kind !== 'image')
          throw ApiError.validation([
            {
              field: input.path,
              messages: [
                `${input.path}: asset ${input.value} is a ${object.type} asset (${object.kind}), not an image`,
              ],
            },
          ]);
        if (object.width && object.height)
          sizes.push({ path: input.path, width: object.width, height: object.height });
      }
    }
    return { inputs, decoded, sizes };
  }

  /** Stores the decoded inputs; returns path → object key. On failure, what was stored is removed. */
  async put(projectId: string, decoded: DecodedInput[]): Promise<Map<string, string>> {
    const keys = new Map<string, string>();
    if (decoded.length === 0) return keys;
    const batch = `${STORED_INPUT_PREFIX}${projectId}/${ulid()}`;
    try {
      for (const input of decoded) {
        const key = `${batch}/${input.path}.${input.extension}`;
        await this.store.put(key, input.bytes, {
          contentType: input.contentType,
          contentLength: input.bytes.length,
        });
        keys.set(input.path, key);
      }
      return keys;
    } catch (error) {
      await this.discard([...keys.values()]);
      throw error;
    }
  }

  /** Best effort: a job that was not created leaves no inputs behind (a lifecycle rule on the prefix sweeps the rest). */
  async discard(keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    try {
      await this.store.delete(keys);
    } catch (error) {
      this.logger.warn(`could not delete ${keys.length} stored generation inputs: ${String(error)}`);
    }
  }
}
