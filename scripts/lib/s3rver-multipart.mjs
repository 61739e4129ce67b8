// The multipart operations s3rver 3.7 lacks or skips, so the test S3 server
// behaves as S3 does where the product relies on it: ListParts (the server
// completes an upload without the client's ETags), AbortMultipartUpload, and
// CompleteMultipartUpload's checks (InvalidPart for a missing part or a wrong
// ETag, InvalidPartOrder, EntityTooSmall, NoSuchUpload). s3rver keeps parts in
// `<bucket>/._S3rver_uploads/<uploadId>/<n>` with `<n>.md5`; this reads them
// there and leaves uploading parts (PUT) and assembling to s3rver.
// Written by hand because no maintained S3 server on npm implements these.
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import S3Error from 's3rver/lib/models/error.js';

const MIN_PART_BYTES = 5 * 1024 * 1024;
const UPLOAD_ID = /^[0-9a-f]{32}$/;

/** Adds the operations to a not yet running S3rver (a Koa app), just before its router. */
export function addMultipartOperations(server) {
  const handle = async (ctx, next) => {
    if (!('uploadId' in ctx.query) || !['GET', 'DELETE', 'POST'].includes(ctx.method)) return next();
    const match = /^\/([^/]+)\/(.+)$/.exec(ctx.path);
    if (!match) return next();
    const bucket = match[1];
    const key = match[2].split('/').map(decodeURIComponent).join('/');
    const uploadId = String(ctx.query.uploadId);
    const dir = await uploadDir(server.store, bucket, key, uploadId);
    if (ctx.method === 'GET') return listParts(ctx, dir, bucket, key, uploadId);
    if (ctx.method === 'DELETE') {
      await rm(dir, { recursive: true, force: true });
      ctx.status = 204;
      return;
    }
    return complete(ctx, dir, bucket, key, uploadId);
  };
  // Koa composes `middleware` when it starts listening; the router is the last entry.
  server.middleware.splice(server.middleware.length - 1, 0, handle);
}

async function uploadDir(store, bucket, key, uploadId) {
  const dir = join(store.getResourcePath(bucket, undefined, 'uploads'), uploadId);
  const storedKey = UPLOAD_ID.test(uploadId)
    ? await readFile(join(dir, 'key'), 'utf8').catch(() => undefined)
    : undefined;
  if (storedKey !== key)
    throw new S3Error('NoSuchUpload', 'The specified upload does not exist.', { UploadId: uploadId });
  return dir;
}

async function storedParts(dir) {
  const parts = [];
  for (const name of await readdir(dir)) {
    if (!/^\d+$/.test(name)) continue;
    const file = join(dir, name);
    const [stats, md5] = await Promise.all([stat(file), readFile(`${file}.md5`, 'utf8')]);
    parts.push({ number: Number(name), etag: md5.trim(), size: stats.size, lastModified: stats.mtime });
  }
  return parts.sort((a, b) => a.number - b.number);
}

async function listParts(ctx, dir, bucket, key, uploadId) {
  const marker = Number(ctx.query['part-number-marker'] ?? 0);
  const max = Math.min(1000, Number(ctx.query['max-parts'] ?? 1000));
  const after = (await storedParts(dir)).filter((p) => p.number > marker);
  const page = after.slice(0, max);
  ctx.body = {
    ListPartsResult: {
      Bucket: bucket,
      Key: key,
      UploadId: uploadId,
      PartNumberMarker: marker,
      NextPartNumberMarker: page.length ? page[page.length - 1].number : marker,
      MaxParts: max,
      IsTruncated: after.length > page.length,
      // s3rver's XML encoder writes one <Part> per array item.
      Part: page.map((p) => ({
        PartNumber: p.number,
        LastModified: p.lastModified.toISOString(),
        ETag: JSON.stringify(p.etag),
        Size: p.size,
      })),
    },
  };
}

async function complete(ctx, dir, bucket, key, uploadId) {
  const xml = await new Promise((resolve, reject) => {
    let text = '';
    ctx.req.setEncoding('utf8');
    ctx.req.on('data', (chunk) => (text += chunk));
    ctx.req.on('end', () => resolve(text));
    ctx.req.on('error', reject);
  });
  const listed = [...xml.matchAll(/<Part>([\s\S]*?)<\/Part>/g)].map(([, part]) => ({
    number: Number(/<PartNumber>\s*(\d+)\s*<\/PartNumber>/.exec(part)?.[1]),
    etag: decode(/<ETag>([\s\S]*?)<\/ETag>/.exec(part)?.[1] ?? '').replace(/"/g, ''),
  }));
  if (listed.length === 0 || listed.some((p) => !Number.isInteger(p.number)))
    throw new S3Error(
      'MalformedXML',
      'The XML you provided was not well-formed or did not validate against our published schema.',
    );
  const stored = new Map((await storedParts(dir)).map((p) => [p.number, p]));
  listed.forEach((part, index) => {
    if (index > 0 && part.number <= listed[index - 1].number)
      throw new S3Error(
        'InvalidPartOrder',
        'The list of parts was not in ascending order. The parts list must be specified in order by part number.',
      );
    const found = stored.get(part.number);
    if (!found || found.etag !== part.etag)
      throw new S3Error(
        'InvalidPart',
        "One or more of the specified parts could not be found. The part might not have been uploaded, or the specified entity tag might not have matched the part's entity tag.",
        { UploadId: uploadId, PartNumber: part.number },
      );
    if (index < listed.length - 1 && found.size < MIN_PART_BYTES)
      throw new S3Error(
        'EntityTooSmall',
        'Your proposed upload is smaller than the minimum allowed object size.',
        {
          PartNumber: part.number,
          ProposedSize: found.size,
          MinSizeAllowed: MIN_PART_BYTES,
        },
      );
  });
  const { md5 } = await ctx.store.putObjectMultipart(bucket, uploadId, listed);
  ctx.body = {
    CompleteMultipartUploadResult: {
      Location: ctx.href.split('?')[0],
      Bucket: bucket,
      Key: key,
      ETag: JSON.stringify(md5),
    },
  };
}

function decode(text) {
  return text
    .replace(/&quot;|&#34;|&#x22;/gi, '"')
    .replace(/&apos;|&#39;/gi, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}
