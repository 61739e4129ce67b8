import type { DatabaseConnection } from '@genasset/persistence';
import { reclaimDownloadLeases } from './downloads/download.repository';
import { reclaimModelEmbeddingLeases } from './search/text-to-image/model-embeddings.repository';
import { reclaimUploadLeases } from './uploads/upload.repository';

/**
 * Ends every lease of asset-service's work queues now (archive exports, upload imports, search-model embeddings), so its
 * workers take those rows again at once instead of when the leases run out. Only for a process
 * that knows no other worker of this database is alive: an embedded one at start, before its
 * own workers claim (libs/runtime, reclaimLeasesAtStart). Returns how many rows it freed.
 */
export async function reclaimAssetLeases(db: Pick<DatabaseConnection, 'query'>): Promise<number> {
  return (await reclaimDownloadLeases(db)) + (await reclaimUploadLeases(db)) + (await reclaimModelEmbeddingLeases(db));
}
