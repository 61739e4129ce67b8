import { errorMessage } from '@genasset/contracts';
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { ApiError } from '@genasset/http';
import { DATABASE_CONNECTION, TaskLoop, type ClaimedTask, type DatabaseConnection } from '@genasset/persistence';
import { OBJECT_STORE, ObjectNotFoundError, sniff, SNIFF_BYTES, type ObjectStore, type SniffedContent } from '@genasset/storage';
import { imageProperties, AssetWriter, type NewAsset } from '../core/asset-writer';
import { probeImage, webRendition } from '../core/images';
import { tryImageEmbedding } from '../embeddings/image-embedding';
import { formatBytes } from '../core/limits';
import type { Upload } from '../generated/prisma/client';
import { objectKeys } from '../objects/object-keys';
import { StoredObjects } from '../objects/stored-objects';
import { FailPendingUpload } from './fail-pending-upload';
import { UPLOAD_LIMITS, type UploadKind } from './upload-limits';
import { UploadRepository, UPLOADS_CHANNEL } from './upload.repository';
import { UPLOAD_SETTINGS, type UploadSettings } from './uploads.settings';

/** The file is not what this service accepts: the upload fails with this message (no retry). */
class Refused extends Error {}

const TYPE_OF: Record<SniffedContent['family'], { type: NewAsset['type']; kind: NewAsset['kind'] }> = {
  image: { type: 'uploaded', kind: 'image' },
  video: { type: 'uploaded-video', kind: 'video' },
  audio: { type: 'uploaded-audio', kind: 'audio' },
  '3d': { type: 'uploaded-3d', kind: '3d' },
};

/**
 * Imports completed uploads as assets, from a queue in `uploads` (status
 * `validating`) claimed under a lease, so a crash mid-import only delays it.
 * The content is recognised from its first bytes (never the declared name or
 * type) and must fit the declared kind and type; images are decoded in full
 * (sharp) for their properties and web rendition. The asset and the upload's
 * `imported` status commit together, with the `asset.created` fact.
 */
@Injectable()
export class UploadImporter implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(UploadImporter.name);
  private readonly workerId = `up_${randomBytes(8).toString('hex')}`;
  private readonly loop: TaskLoop;

  constructor(
    @Inject(DATABASE_CONNECTION) db: DatabaseConnection,
    @Inject(UPLOAD_SETTINGS) private readonly settings: UploadSettings,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    private readonly uploads: UploadRepository,
    private readonly writer: AssetWriter,
    private readonly objects: StoredObjects,
    private readonly failPending: FailPendingUpload,
  ) {
    this.loop = new TaskLoop(
      {
        name: UploadImporter.name,
        concurrency: settings.concurrency,
        pollIntervalMs: settings.pollIntervalMs,
        db,
        channel: UPLOADS_CHANNEL,
        backoff: { baseMs: 500, maxMs: 30_000 },
        maintenance: { everyMs: Math.min(60_000, settings.pollIntervalMs * 5), run: () => this.maintain() },
      },
      (room) => this.claim(room),
    );
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.loop.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.loop.stop();
  }

  wake(): void {
    this.loop.wake();
  }

  private async claim(room: number): Promise<ClaimedTask[]> {
    const uploads = await this.uploads.claim(this.workerId, this.settings.leaseMs, room);
    return uploads.map((upload) => () => this.run(upload));
  }

  private async run(upload: Upload): Promise<void> {
    let renditionKey: string | undefined;
    try {
      if (upload.attempts > UPLOAD_LIMITS.maxAttempts)
        throw new Refused(`the file could not be imported after ${UPLOAD_LIMITS.maxAttempts} attempts`);
      const asset = await this.describe(upload);
      renditionKey = asset.renditionKey;
      const imported = await this.uploads.transaction(async (tx) => {
        await this.writer.create(tx, asset);
        if (!(await this.uploads.imported(tx, upload.id, this.workerId)))
          throw new Error(`claim on ${upload.id} lost`);
        return true;
      });
      if (imported)
        this.logger.log(
          `upload ${upload.id} imported as ${asset.id} (${asset.mimeType}, ${upload.fileSize} bytes)`,
        );
    } catch (error) {
      if (renditionKey) await this.objects.discard([renditionKey]);
      const refusal = error instanceof Refused ? error.message : parentGone(error);
      if (refusal) {
        if (await this.uploads.importFailed(upload.id, this.workerId, refusal))
          await this.objects.discard([upload.objectKey]);
        return;
      }
      this.logger.warn(
        `import of ${upload.id} failed (attempt ${upload.attempts}), retrying: ${errorMessage(error)}`,
      );
      await this.uploads.release(upload.id, this.workerId, 5_000 * upload.attempts).catch(() => undefined);
    }
  }

  /** Reads the object and decides what asset it makes; throws Refused for content this service does not accept. */
  private async describe(upload: Upload): Promise<NewAsset & { id: string }> {
    const size = Number(upload.fileSize);
    const head = await this.readHead(upload.objectKey);
    const found = sniff(head, size);
    if (!found)
      throw new Refused(
        'the file is not a supported image, video, audio or 3D format (its content was checked, not its name)',
      );
    const content = fit(found, upload.kind as UploadKind, upload.contentType);
    const { type, kind } = TYPE_OF[content.family];
    const base = {
      id: upload.assetId!,
      owner: { teamId: upload.teamId, projectId: upload.projectId, authorId: upload.authorId },
      type: upload.kind === 'avatar' ? ('uploaded-avatar' as const) : type,
      kind,
      name: upload.originalFileName,
      ...(upload.parentId ? { parentId: upload.parentId } : {}),
      storageKey: upload.objectKey,
      metadata: { uploadId: upload.id },
    };
    if (content.family !== 'image') {
      return { ...base, mimeType: content.mimeType, properties: { size, format: content.format } };
    }
    if (size > UPLOAD_LIMITS.maxImageBytes)
      throw new Refused(`images are limited to ${formatBytes(UPLOAD_LIMITS.maxImageBytes)}`);
    const bytes = await this.readAll(upload.objectKey);
    let image;
    try {
      image = await probeImage(bytes, 'the file');
    } catch (error) {
      if (error instanceof ApiError) throw new Refused(error.message);
      throw error;
    }
    const rendition = await webRendition(bytes, image);
    let renditionKey: string | undefined;
    if (rendition) {
      renditionKey = objectKeys.rendition(upload.projectId, upload.assetId!);
      await this.objects.put(renditionKey, rendition, 'image/webp');
    }
    return {
      ...base,
      mimeType: image.mimeType,
      properties: imageProperties(image),
      ...(renditionKey ? { renditionKey } : {}),
      embedding: await tryImageEmbedding(bytes),
    };
  }

  private async readHead(key: string): Promise<Buffer> {
    const body = await this.open(key);
    const chunks: Buffer[] = [];
    let length = 0;
    try {
      for await (const chunk of body) {
        chunks.push(chunk as Buffer);
        length += (chunk as Buffer).length;
        if (length >= SNIFF_BYTES) break;
      }
    } finally {
      body.destroy();
    }
    return Buffer.concat(chunks).subarray(0, SNIFF_BYTES);
  }

  private async readAll(key: string): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of await this.open(key)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  private async open(key: string): Promise<Readable> {
    try {
      return (await this.store.get(key)).body;
    } catch (error) {
      if (error instanceof ObjectNotFoundError)
        throw new Refused('the uploaded file is no longer in storage');
      throw error;
    }
  }

  /** Pending uploads past their expiry are aborted; finished records purged. */
  private async maintain(): Promise<void> {
    for (const upload of await this.uploads.expired()) {
      const hours = Math.round(this.settings.ttlMs / 360_000) / 10;
      await this.failPending.execute(upload, `expired: not completed within ${hours} hours`);
    }
    await this.uploads.purge(UPLOAD_LIMITS.retentionMs);
  }
}

/**
 * The recognised content, as the declared kind and content type read it: a
 * container holding audio or video (mp4, webm, mkv) is audio when declared
 * so. Content of another family than declared is refused.
 */
export function fit(found: SniffedContent, kind: UploadKind, contentType: string): SniffedContent {
  const wantsAudio = kind === 'audio' || contentType.startsWith('audio/');
  const content =
    wantsAudio && found.alsoAudio ? { ...found, ...found.alsoAudio, family: 'audio' as const } : found;
  const declaredFamily =
    kind === 'image' || kind === 'avatar'
      ? 'image'
      : kind === 'video'
        ? 'video'
        : kind === 'audio'
          ? 'audio'
          : kind === '3d'
            ? '3d'
            : undefined;
  if (declaredFamily && content.family !== declaredFamily) {
    throw new Refused(
      `the file is ${article(content.family)} file (${content.format}), not ${article(declaredFamily)} file as kind ${kind} declares`,
    );
  }
  const typeFamily = contentType.split('/')[0];
  const compatible =
    contentType === 'application/octet-stream' ||
    (typeFamily === 'image' && content.family === 'image') ||
    (typeFamily === 'video' && content.family === 'video') ||
    (typeFamily === 'audio' && content.family === 'audio') ||
    ((typeFamily === 'model' || contentType === 'application/x-fbx' || contentType === 'application/x-ply') &&
      content.family === '3d');
  if (!compatible)
    throw new Refused(
      `the file is ${article(content.family)} file (${content.format}), which does not match contentType ${contentType}`,
    );
  return content;
}

function article(family: string): string {
  return family === 'audio'
    ? 'an audio'
    : family === 'image'
      ? 'an image'
      : family === '3d'
        ? 'a 3D'
        : `a ${family}`;
}

/** The parent named at creation was deleted before the import: nothing to attach the asset to. */
function parentGone(error: unknown): string | undefined {
  return error instanceof ApiError && error.getStatus() === 404
    ? `the parent asset was deleted before the import: ${error.message}`
    : undefined;
}
