import { Injectable } from '@nestjs/common';
import { prefixedId } from '@genasset/contracts';
import { ApiError } from '@genasset/http';
import { AssetPresenter, type AssetView } from '../core/asset-presenter';
import { AssetRepository, type AssetRow } from '../core/asset.repository';
import { decodeBase64Payload } from '../core/base64-payload';
import { parseCanvas } from '../core/canvas-content';
import { probeImage } from '../core/images';
import { LIMITS } from '../core/limits';
import { TenantScopes, type ProjectScope } from '../core/tenant-scope';
import { AssetFacts } from '../facts/asset-facts';
import type { Prisma } from '../generated/prisma/client';
import { objectKeys } from '../objects/object-keys';
import { StoredObjects } from '../objects/stored-objects';
import { CanvasLockRepository } from './canvas-lock.repository';
import { activeLock, assertMayWrite, lockedConflict, lockExpiry, notACanvas } from './canvas-lock';
import type { UnlockBody, UpdateAssetBody } from './dto/canvas.dto';
import { SnapshotRepository } from './snapshot.repository';

interface NewObject {
  key: string;
  bytes: Buffer;
  contentType: string;
}

/** PUT /v1/assets/{id} (canvas content, name, description, privacy) and the canvas lock. */
@Injectable()
export class CanvasService {
  constructor(
    private readonly assets: AssetRepository,
    private readonly locks: CanvasLockRepository,
    private readonly scopes: TenantScopes,
    private readonly objects: StoredObjects,
    private readonly snapshots: SnapshotRepository,
    private readonly facts: AssetFacts,
    private readonly presenter: AssetPresenter,
  ) {}

  /**
   * Checks everything (lock, content) before storing; stores the new objects
   * under fresh keys; then, holding the row lock, re-checks the canvas lock
   * and commits the row, the snapshot and the `asset.updated` fact together.
   * Replaced objects are deleted after commit; new ones if anything failed.
   */
  async update(scope: ProjectScope, assetId: string, body: UpdateAssetBody, original: boolean): Promise<AssetView> {
    const changes = (['canvas', 'thumbnail', 'name', 'description', 'privacy', 'lockExpiresAt'] as const).filter((f) => body[f] !== undefined);
    if (changes.length === 0) {
      throw ApiError.validation([{ field: '(body)', messages: ['nothing to update: give canvas, thumbnail, name, description or privacy'] }]);
    }
    if (body.lockExpiresAt !== undefined && body.lockId === undefined) {
      throw ApiError.validation([{ field: 'lockExpiresAt', messages: ['lockExpiresAt extends a held lock: give its lockId too'] }]);
    }
    const current = await this.assets.findInProject(scope.projectId, assetId);
    if (!current) throw ApiError.notFound(`asset ${assetId} not found`, assetId);
    if ((body.canvas !== undefined || body.thumbnail !== undefined) && current.type !== 'canvas') {
      throw new ApiError(400, 'not_a_canvas', `asset ${assetId} is not a canvas: canvas and thumbnail apply to canvas assets only`, { assetId });
    }
    assertMayWrite(current, body.lockId, new Date());
    const newExpiry = body.lockExpiresAt !== undefined ? lockExpiry(body.lockExpiresAt, new Date()) : undefined;

    const canvas = body.canvas !== undefined ? parseCanvas(body.canvas, 'canvas') : undefined;
    const canvasObject: NewObject | undefined = canvas
      ? { key: objectKeys.original(scope.projectId, assetId, 'json'), bytes: canvas.bytes, contentType: 'application/json' }
      : undefined;
    const thumbnailObject = body.thumbnail !== undefined ? await this.thumbnail(scope, assetId, body.thumbnail) : undefined;
    const created = [canvasObject, thumbnailObject].filter((o): o is NewObject => !!o);

    const stored: string[] = [];
    let replaced: string[] = [];
    let row: AssetRow;
    try {
      for (const object of created) {
        stored.push(object.key);
        await this.objects.put(object.key, object.bytes, object.contentType);
      }
      const canvasKey = canvasObject?.key;
      const thumbnailKey = thumbnailObject?.key;
      ({ row, replaced } = await this.assets.transaction(async (tx) => {
        const locked = await this.assets.lockInProject(tx, scope.projectId, assetId);
        if (!locked) throw ApiError.notFound(`asset ${assetId} not found`, assetId);
        assertMayWrite(locked, body.lockId, new Date());
        // Extending the lock alone changes no content: no updatedAt, no fact.
        const changesContent = changes.some((f) => f !== 'lockExpiresAt');
        const data: Prisma.AssetUpdateInput = {
          ...(changesContent ? { updatedAt: new Date() } : {}),
          ...(canvasKey && canvas ? { storageKey: canvasKey, properties: canvas.properties, contentVersion: { increment: 1 } } : {}),
          ...(thumbnailKey ? { thumbnailKey } : {}),
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.description !== undefined ? { description: body.description } : {}),
          ...(body.privacy !== undefined ? { privacy: body.privacy } : {}),
          ...(newExpiry ? { lockExpiresAt: newExpiry } : {}),
        };
        const updated = await this.assets.update(tx, assetId, data);
        if (canvas && body.disableSnapshot !== true) await this.snapshots.record(tx, assetId, scope.authorId, canvas);
        const dropped = [canvasKey ? locked.storageKey : undefined, thumbnailKey ? locked.thumbnailKey : undefined].filter(
          (k): k is string => !!k,
        );
        await this.objects.keep(tx, stored);
        await this.objects.release(tx, dropped);
        if (changesContent) await this.facts.updated(tx, [updated]);
        return { row: updated, replaced: dropped };
      }));
    } catch (error) {
      await this.objects.discard(stored);
      throw error;
    }
    await this.objects.flush(replaced);
    return this.presenter.view(row, { original, viewer: scope.projectId });
  }

  /** Takes the lock if nobody holds it (one conditional UPDATE, so two lockers cannot both win). */
  async lock(scope: ProjectScope, assetId: string, lockExpiresAt: string | undefined, original: boolean): Promise<{ asset: AssetView; lockId: string }> {
    const expiresAt = lockExpiry(lockExpiresAt, new Date());
    const lockId = prefixedId('lock');
    // Twice at most: a lock that expires between the attempt and the check is free on the second.
    for (let attempt = 0; ; attempt++) {
      const now = new Date();
      const taken = await this.locks.take(scope.projectId, assetId, { lockId, expiresAt, authorId: scope.authorId }, now);
      const row = await this.canvasOf(scope, assetId);
      if (taken) return { asset: await this.presenter.view(row, { original, viewer: scope.projectId }), lockId };
      const held = activeLock(row, new Date());
      if (held && held.lockId !== lockId) throw lockedConflict(assetId, held.expiresAt);
      if (attempt > 0) throw lockedConflict(assetId, row.lockExpiresAt ?? now);
    }
  }

  /** Releases the lock `lockId`, or any lock with forceUnlock (project admins). Unlocking an unlocked canvas succeeds. */
  async unlock(scope: ProjectScope, assetId: string, body: UnlockBody, original: boolean): Promise<AssetView> {
    if (body.lockId === undefined && body.forceUnlock !== true) {
      throw ApiError.validation([{ field: 'lockId', messages: ['give lockId, or forceUnlock: true (project admins)'] }]);
    }
    await this.canvasOf(scope, assetId);
    if (body.forceUnlock === true) this.scopes.assertAdmin(scope, 'forceUnlock');
    if (body.forceUnlock === true) {
      await this.locks.release(scope.projectId, assetId);
    } else {
      if (!(await this.locks.release(scope.projectId, assetId, body.lockId))) {
        const held = activeLock(await this.canvasOf(scope, assetId), new Date());
        if (held) throw lockedConflict(assetId, held.expiresAt);
      }
    }
    return this.presenter.view(await this.canvasOf(scope, assetId), { original, viewer: scope.projectId });
  }

  async listSnapshots(scope: ProjectScope, assetId: string, pageSize: number, token?: string) {
    await this.canvasOf(scope, assetId);
    return this.snapshots.page(assetId, pageSize, token);
  }

  private async thumbnail(scope: ProjectScope, assetId: string, value: string): Promise<NewObject> {
    const bytes = decodeBase64Payload(value, 'thumbnail', LIMITS.maxThumbnailBytes);
    const probed = await probeImage(bytes, 'thumbnail');
    return { key: objectKeys.thumbnail(scope.projectId, assetId, probed.extension), bytes, contentType: probed.mimeType };
  }

  private async canvasOf(scope: ProjectScope, assetId: string): Promise<AssetRow> {
    const row = await this.assets.findInProject(scope.projectId, assetId);
    if (!row) throw ApiError.notFound(`asset ${assetId} not found`, assetId);
    if (row.type !== 'canvas') throw notACanvas(assetId);
    return row;
  }
}
