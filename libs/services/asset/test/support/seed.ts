import { randomBytes } from 'node:crypto';
import { ulid } from 'ulid';
import type { ServiceHarness, Tenant } from '@genasset/testing';

export interface SeedAsset {
  id?: string;
  type?: string;
  privacy?: 'private' | 'public' | 'unlisted';
  authorId?: string;
  tags?: string[];
  collectionIds?: string[];
  parentId?: string;
  rootParentId?: string;
  inferenceId?: string;
  modelId?: string;
  createdAt?: Date;
  updatedAt?: Date;
  name?: string;
  description?: string;
  metadata?: Record<string, unknown>;
  embedding?: number[];
}

/**
 * Inserts asset rows directly (list tests need hundreds of rows with chosen
 * timestamps and lineage; uploading each would only slow them down). Their
 * object keys point nowhere: URLs are signed without looking at storage.
 */
export async function seedAssets(harness: ServiceHarness, tenant: Pick<Tenant, 'teamId' | 'projectId'>, rows: SeedAsset[]): Promise<string[]> {
  const ids: string[] = [];
  for (const row of rows) {
    const id = row.id ?? `asset_${ulid()}`;
    ids.push(id);
    const createdAt = row.createdAt ?? new Date();
    await harness.db.query(
      `INSERT INTO assets.assets (id, team_id, project_id, author_id, type, kind, mime_type, privacy, tags, collection_ids,
         parent_id, root_parent_id, inference_id, model_id, storage_key, properties, created_at, updated_at,
         name, description, metadata, embedding)
       VALUES ($1, $2, $3, $4, $5, 'image', 'image/png', $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)`,
      [
        id,
        tenant.teamId,
        tenant.projectId,
        row.authorId ?? 'key_seed',
        row.type ?? 'uploaded',
        row.privacy ?? 'private',
        row.tags ?? [],
        row.collectionIds ?? [],
        row.parentId ?? null,
        row.rootParentId ?? null,
        row.inferenceId ?? null,
        row.modelId ?? null,
        `assets/${tenant.projectId}/${id}/original-${randomBytes(3).toString('hex')}.png`,
        JSON.stringify({ width: 1, height: 1, size: 1, format: 'png' }),
        createdAt,
        row.updatedAt ?? createdAt,
        row.name ?? null,
        row.description ?? null,
        JSON.stringify(row.metadata ?? {}),
        row.embedding ?? [],
      ],
    );
  }
  return ids;
}

/** Timestamps one second apart from a fixed origin: `at(0) < at(1) < …`. */
export const at = (i: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, i));
