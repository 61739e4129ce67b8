import { PassThrough } from 'node:stream';
import { ZipFile } from 'yazl';
import type { ObjectStore, StoredObject } from '@genasset/storage';
import {
  EngineError,
  throwIfAborted,
  type EngineContext,
  type EngineJob,
  type EngineResult,
} from '../engine';
import { TransientError } from '../../work/transient-error';

/** Signed download links of model archives live this long (the S3 maximum). */
const URL_SECONDS = 7 * 24 * 3600;

/**
 * `model-download` jobs: packs the model's files (`input.files`: name + key,
 * as generation-service recorded them) and a `manifest.json` (`input.model`)
 * into `model-downloads/<projectId>/<jobId>/<modelId>.zip`, and answers with a
 * signed `downloadUrl` (model.download.completed carries it). Streams: no file
 * is held in memory whole.
 */
export async function exportModel(
  job: EngineJob,
  ctx: EngineContext,
  store: ObjectStore,
): Promise<EngineResult> {
  const files = Array.isArray(job.input.files)
    ? (job.input.files as { name?: unknown; key?: unknown }[])
    : [];
  if (files.length === 0) throw new EngineError('the model has no files to export');
  // Defence in depth (generation-service builds this input): only the model's own files, under its owner's project.
  const owner =
    typeof job.input.ownerProjectId === 'string' ? job.input.ownerProjectId : job.tenant.projectId;
  const prefix = `models/${owner}/${job.modelId}/`;
  for (const f of files)
    if (typeof f.key !== 'string' || typeof f.name !== 'string' || !f.key.startsWith(prefix))
      throw new EngineError('the export names a file outside the model’s project');
  const zip = new ZipFile();
  const out = new PassThrough();
  zip.outputStream.pipe(out);
  const key = `model-downloads/${job.tenant.projectId}/${job.jobId}/${job.modelId ?? 'model'}.zip`;
  const upload = store.upload(key, out, { contentType: 'application/zip' });
  upload.catch(() => undefined);
  try {
    zip.addBuffer(Buffer.from(JSON.stringify(job.input.model ?? {}, null, 2)), 'manifest.json');
    for (const [i, f] of files.entries()) {
      throwIfAborted(ctx.signal);
      let object;
      try {
        object = await store.get(f.key as string);
      } catch (error) {
        throw new EngineError(
          `model file ${String(f.name)} is missing from storage (${(error as Error).message})`,
        );
      }
      await addEntry(zip, object, f.name as string);
      await ctx.progress((i + 1) / (files.length + 1));
    }
    zip.end();
    await upload;
  } catch (error) {
    zip.end();
    await upload.catch(() => undefined);
    await store.delete([key]).catch(() => undefined);
    if (error instanceof EngineError) throw error;
    throw new TransientError('the model archive could not be written', error);
  }
  const downloadUrl = await store.signedUrl(key, {
    expiresInSeconds: URL_SECONDS,
    downloadName: `${job.modelId ?? 'model'}.zip`,
  });
  return { outputs: [], extra: { downloadUrl } };
}

/** Adds one file and resolves once its bytes are in the archive (yazl writes entries one at a time). */
function addEntry(zip: ZipFile, object: StoredObject, name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    object.body.once('error', reject);
    object.body.once('end', () => resolve());
    zip.addReadStream(object.body, name, object.contentLength > 0 ? { size: object.contentLength } : {});
  });
}
