import { Inject, Injectable, Logger, Optional, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import sharp from 'sharp';
import { errorMessage } from '@genasset/contracts';
import { ReadinessRegistry } from '@genasset/http';
import { backoffDelay } from '@genasset/messaging';
import { ClaimLoop, DATABASE_CONNECTION, type DatabaseConnection } from '@genasset/persistence';
import { OBJECT_STORE, ObjectNotFoundError, type ObjectStore } from '@genasset/storage';
import { describeModelMode, VectorIndex, type ModelSearchMode } from '../vector-index';
import { IMAGES_PER_CALL, SearchModel, SearchModelError } from './search-model';
import { MODEL_EMBEDDING_CHANNEL, ModelEmbeddingsRepository, type ClaimedAsset } from './model-embeddings.repository';

/** Images are sent at most this many pixels a side (CLIP models read 224–512), as JPEG data URIs. */
const SEND_SIDE = 512;
/** Back-off of a failing backend: from 2 s, doubling, at most 5 min (backoffDelay: jitter on the upper half). */
const BACKOFF = { initialMs: 2_000, maxMs: 300_000 };
/** How often a database without the model's index is asked again whether it could have one (pgvector installed meanwhile). */
const INDEX_RECHECK_MS = 60_000;
/** What readiness counts up to (an exact count of millions of rows on every probe would cost more than it tells). */
const PENDING_CAP = 10_000;

/** An asset whose bytes cannot be embedded (missing, not an image, refused by the model): recorded, not retried for this model. */
class Unembeddable extends Error {}

/**
 * Fills `model_embedding` with the search model's vectors (docs/search.md, "Text to image"): a
 * ClaimLoop (libs/persistence) that claims batches of assets lacking a vector of the configured
 * model (ModelEmbeddingsRepository: leased, so replicas split the work and a crash loses nothing),
 * reads their originals, sends them in one call per batch, and stores the batch in one statement.
 * Woken by NOTIFY when assets are created (migration 0006's trigger), polled every 30 s, and so
 * works through existing assets (a backfill; a model change makes every vector stale) newest first.
 *
 * A backend that fails (unreachable, 5xx, 429, 401…) is backed off (backoffDelay, from 2 s to
 * 5 min, or its retry-after when longer): the batch is given back for then, the error logged and
 * shown by /readyz as `details["search.textToImage"]`. An asset whose bytes cannot be embedded (its
 * original is missing, is no image, or the model refuses it while it embeds a known-good picture)
 * is marked with the error and not tried again for this model.
 */
@Injectable()
export class ModelEmbedder implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('ModelEmbedder');
  private readonly loop?: ClaimLoop;
  private failures = 0;
  private lastError?: string;
  private removeCheck?: () => void;
  private pendingCache?: { at: number; value: Promise<number> };
  /** A picture the model must embed: tells a refused asset from a refusing model. */
  private probe?: Promise<string>;
  private readonly leaseMs: number;
  /** Aborted at shutdown: a call in flight is abandoned and its batch given back at once (stop() need not wait for the backend). */
  private readonly stopping = new AbortController();
  /** The dimension of the model's vectors, once known (a stored vector at start, or the first batch). */
  private dims?: number;
  /** The search index's state for the model (migration 0007's HNSW index), and when it was last ensured. */
  private index?: { mode: ModelSearchMode; at: number };

  constructor(
    @Inject(DATABASE_CONNECTION) db: DatabaseConnection,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    private readonly model: SearchModel,
    private readonly repository: ModelEmbeddingsRepository,
    private readonly vectorIndex: VectorIndex,
    @Optional() private readonly readiness?: ReadinessRegistry,
  ) {
    const config = model.config;
    // A batch's originals, one call and its write: twice the call's limit and a minute is ample.
    this.leaseMs = (config?.requestTimeoutMs ?? 60_000) * 2 + 60_000;
    if (config)
      this.loop = new ClaimLoop(
        { name: 'ModelEmbedder', pollIntervalMs: 30_000, db, channel: MODEL_EMBEDDING_CHANNEL, backoff: { baseMs: 1_000, maxMs: 60_000 } },
        () => this.round(),
      );
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.loop) return;
    this.removeCheck = this.readiness?.register('search.textToImage', () => this.describe());
    await this.loop.start();
  }

  async onModuleDestroy(): Promise<void> {
    this.removeCheck?.();
    this.stopping.abort();
    await this.loop?.stop();
  }

  /** Claim now (tests, and anything that knows new work is there). */
  wake(): void {
    this.loop?.wake();
  }

  /** `model jina-clip-v2 (backend clip): 12 pending; last error: …` — what /readyz shows. */
  async describe(): Promise<string> {
    const model = this.model.model!;
    const now = Date.now();
    if (!this.pendingCache || now - this.pendingCache.at > 5_000) {
      const value = this.repository.pending(model, PENDING_CAP);
      value.catch(() => undefined);
      this.pendingCache = { at: now, value };
    }
    const pending = await this.pendingCache.value;
    const count = pending >= PENDING_CAP ? `${PENDING_CAP}+` : String(pending);
    const error = this.lastError ? `; last error: ${this.lastError}` : '';
    const search = describeModelMode(this.vectorIndex.modelMode(model, this.dims));
    return `model ${model} (backend ${this.model.config!.backend}): ${count} pending; search: ${search}${error}`;
  }

  /**
   * Builds the HNSW index of the model's vectors where pgvector is installed (VectorIndex.ensureModelIndex:
   * migration 0007's function, idempotent, once across replicas), when the dimension is first known — at start
   * from a stored vector, else from the first batch stored — and again at most every minute while there is
   * none (pgvector installed meanwhile). On the embedder's loop, never on a search's path. A failure is
   * logged and tried again later; the search keeps the exact scan meanwhile.
   */
  private async ensureIndex(model: string): Promise<void> {
    this.dims ??= await this.repository.dimensions(model);
    if (this.dims === undefined) return;
    if (this.index && (this.index.mode.kind === 'hnsw' || Date.now() - this.index.at < INDEX_RECHECK_MS)) return;
    const at = Date.now();
    try {
      const started = Date.now();
      const mode = await this.vectorIndex.ensureModelIndex(model, this.dims);
      if (mode.kind === 'hnsw' && this.index?.mode.kind !== 'hnsw') this.logger.log(`text-to-image similarity: ${describeModelMode(mode)}, ready in ${Date.now() - started} ms`);
      else if (!this.index) this.logger.log(`text-to-image similarity: ${describeModelMode(mode)}`);
      this.index = { mode, at };
    } catch (error) {
      this.logger.warn(`the search model's index could not be built (${errorMessage(error)}); search keeps the exact scan, trying again in a minute`);
      this.index = { mode: { kind: 'exact', reason: errorMessage(error) }, at };
    }
  }

  /** One batch: true when it was full (more may be waiting). */
  private async round(): Promise<boolean> {
    const model = this.model.model!;
    await this.ensureIndex(model);
    const claimed = await this.repository.claim(model, IMAGES_PER_CALL, this.leaseMs);
    if (!claimed.length) return false;
    try {
      await this.embedBatch(model, claimed);
      if (this.failures > 0) this.logger.log(`the search model ${model} answers again (after ${this.failures} failed attempt(s))`);
      this.failures = 0;
      this.lastError = undefined;
      return claimed.length >= IMAGES_PER_CALL;
    } catch (error) {
      if (this.stopping.signal.aborted) {
        // Shutting down: the batch goes back as it was, for the next replica (or this one's next start).
        await this.repository.release(
          claimed.map((c) => c.id),
          0,
        );
        return false;
      }
      // The backend failed (SearchModelError transient/invalid) or storage/database did: the batch is retried later.
      this.failures++;
      const retryAfter = error instanceof SearchModelError ? (error.retryAfterMs ?? 0) : 0;
      const delay = Math.max(retryAfter, backoffDelay(this.failures, BACKOFF.initialMs, BACKOFF.maxMs));
      this.lastError = errorMessage(error);
      if (this.failures === 1 || this.failures % 10 === 0)
        this.logger.warn(`embedding ${claimed.length} asset(s) failed (${this.failures}x), retrying in ${delay} ms: ${this.lastError}`);
      await this.repository.release(
        claimed.map((c) => c.id),
        delay,
      );
      this.loop?.wakeAt(Date.now() + delay);
      return false;
    } finally {
      this.pendingCache = undefined;
    }
  }

  private async embedBatch(model: string, claimed: readonly ClaimedAsset[]): Promise<void> {
    const failed: { id: string; error: string }[] = [];
    const ready: { asset: ClaimedAsset; uri: string }[] = [];
    const read = await Promise.allSettled(claimed.map((asset) => this.dataUri(asset)));
    read.forEach((result, i) => {
      if (result.status === 'fulfilled') ready.push({ asset: claimed[i], uri: result.value });
      else if (result.reason instanceof Unembeddable) failed.push({ id: claimed[i].id, error: result.reason.message });
      else throw result.reason;
    });
    let embedded: { id: string; embedding: number[] }[] = [];
    if (ready.length) {
      try {
        const vectors = await this.model.embedImages(
          ready.map((r) => r.uri),
          this.stopping.signal,
        );
        embedded = ready.map((r, i) => ({ id: r.asset.id, embedding: vectors[i] }));
      } catch (error) {
        if (!(error instanceof SearchModelError) || error.kind !== 'refused') throw error;
        // One refused image refuses the batch (Infinity: 400 ImageCorruption): each alone, to find which.
        for (const r of ready) {
          try {
            const [vector] = await this.model.embedImages([r.uri], this.stopping.signal);
            embedded.push({ id: r.asset.id, embedding: vector });
          } catch (single) {
            if (!(single instanceof SearchModelError) || single.kind !== 'refused') throw single;
            await this.modelWorks(single);
            failed.push({ id: r.asset.id, error: single.message });
          }
        }
      }
    }
    await this.repository.save(model, embedded);
    await this.repository.fail(model, failed);
    if (embedded.length && this.dims === undefined) {
      this.dims = embedded[0].embedding.length;
      await this.ensureIndex(model);
    }
    for (const f of failed) this.logger.warn(`asset ${f.id}: no search embedding (${f.error})`);
  }

  /** Throws `refused` as a failure of the backend (retried) when it refuses a known-good picture too (a wrong model name…). */
  private async modelWorks(refusal: SearchModelError): Promise<void> {
    this.probe ??= sharp({ create: { width: 32, height: 32, channels: 3, background: { r: 128, g: 128, b: 128 } } })
      .jpeg()
      .toBuffer()
      .then((b) => `data:image/jpeg;base64,${b.toString('base64')}`);
    try {
      await this.model.embedImages([await this.probe], this.stopping.signal);
    } catch {
      throw new SearchModelError(`${refusal.message} (it refuses a plain test picture too)`, 'transient');
    }
  }

  /** The original, at most SEND_SIDE pixels a side, as a JPEG data URI. */
  private async dataUri(asset: ClaimedAsset): Promise<string> {
    let bytes: Buffer;
    try {
      const object = await this.store.get(asset.storageKey);
      const chunks: Buffer[] = [];
      for await (const chunk of object.body) chunks.push(chunk as Buffer);
      bytes = Buffer.concat(chunks);
    } catch (error) {
      if (error instanceof ObjectNotFoundError) throw new Unembeddable('its original is missing from storage');
      throw error;
    }
    try {
      const jpeg = await sharp(bytes, { limitInputPixels: 100_000_000 })
        .rotate()
        .resize(SEND_SIDE, SEND_SIDE, { fit: 'inside', withoutEnlargement: true })
        .flatten({ background: '#ffffff' })
        .jpeg({ quality: 90 })
        .toBuffer();
      return `data:image/jpeg;base64,${jpeg.toString('base64')}`;
    } catch (error) {
      throw new Unembeddable(`not a readable image (${errorMessage(error)})`);
    }
  }
}
