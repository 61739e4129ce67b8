import { openApiResponseChecker, waitFor } from '@genasset/testing';
import { startDownloadHarness } from './support/archive-fixtures';
import { dataUrl, png, type Json, type ServiceHarness, type Tenant } from './support/asset-fixtures';

const PUBLIC_TOKEN = 'public-auth-token';
const UNKNOWN_ASSET = 'asset_01JD6Z3Q9V8K2M4N6P8R0T2V4X';

/**
 * The served OpenAPI document tells the truth about the asset and upload
 * routes: every real answer (successes and errors) matches the documented
 * status and schema, and the query parameters are documented as validated.
 */
describe('assets and uploads: the OpenAPI document matches the routes', () => {
  let h: ServiceHarness;
  let a: Tenant;
  let b: Tenant;
  let doc: Json;
  let check: ReturnType<typeof openApiResponseChecker>;
  beforeAll(async () => {
    h = await startDownloadHarness();
    [a, b] = [await h.tenant(), await h.tenant()];
    const res = await h.request('GET', '/v1/openapi.json');
    expect(res.status).toBe(200);
    doc = res.body;
    check = openApiResponseChecker(doc as Parameters<typeof openApiResponseChecker>[0]);
  });
  afterAll(() => h?.close());

  const call = async (method: string, path: string, body?: unknown, auth: string | null = a.auth.projectMember) => {
    const res = await h.request(method, path, { ...(auth ? { auth } : {}), ...(body === undefined ? {} : { body }) });
    return { what: `${method} ${path} → ${res.status}`, status: res.status, body: res.body as Json, problems: check(method, path, res.status, res.body) };
  };
  type Call = Awaited<ReturnType<typeof call>>;
  const statuses = (calls: Call[]) => calls.map((c) => c.status);
  const problems = (calls: Call[]) => calls.flatMap((c) => c.problems);

  it('answers every asset route, successes and errors, as documented', async () => {
    const image = await call('POST', '/v1/assets', { image: dataUrl(await png()), name: 'image.png' });
    const id: string = image.body.asset.id;
    const canvas = await call('POST', '/v1/assets', { canvas: JSON.stringify({ layers: [] }), name: 'canvas' });
    const canvasId: string = canvas.body.asset.id;
    const publish = await call('PUT', `/v1/assets/${id}`, { privacy: 'public', description: 'shared' });
    const lock = await call('PUT', `/v1/assets/${canvasId}/lock`, {});
    const lockId: string = lock.body.lockId;
    const calls: Call[] = [
      image,
      await call('POST', '/v1/assets', {}),
      await call('POST', '/v1/assets', { image: dataUrl(await png()) }, null),
      canvas,
      publish,
      await call('PUT', `/v1/assets/${id}`, {}),
      await call('PUT', `/v1/assets/${UNKNOWN_ASSET}`, { name: 'x' }),
      await call('GET', '/v1/assets'),
      await call('GET', '/v1/assets?pageSize=1'),
      await call('GET', '/v1/assets?privacy=public&pageSize=5'),
      await call('GET', '/v1/assets?pageSize=5', undefined, PUBLIC_TOKEN),
      await call('GET', '/v1/assets?pageSize=1.5'),
      await call('GET', '/v1/assets?sortBy=createdAt&createdAfter=notadate'),
      await call('GET', '/v1/assets', undefined, null),
      await call('GET', '/v1/assets/public?pageSize=5'),
      await call('GET', '/v1/assets/public?pageSize=1.5'),
      await call('GET', `/v1/assets/${id}`),
      await call('GET', `/v1/assets/${id}?withEmbedding=true`),
      await call('GET', `/v1/assets/${id}`, undefined, PUBLIC_TOKEN),
      await call('GET', `/v1/assets/${UNKNOWN_ASSET}`),
      await call('GET', `/v1/assets/public/${id}`, undefined, null),
      await call('GET', `/v1/assets/public/${UNKNOWN_ASSET}`, undefined, null),
      await call('POST', '/v1/assets/get-bulk', { assetIds: [id, canvasId, UNKNOWN_ASSET] }),
      await call('POST', '/v1/assets/get-bulk', {}),
      lock,
      await call('PUT', `/v1/assets/${canvasId}/lock`, {}),
      await call('PUT', `/v1/assets/${canvasId}`, { lockId, canvas: JSON.stringify({ layers: [1] }) }),
      await call('PUT', `/v1/assets/${canvasId}`, { canvas: JSON.stringify({ layers: [2] }) }),
      await call('PUT', `/v1/assets/${canvasId}/unlock`, { lockId }),
      await call('PUT', `/v1/assets/${canvasId}/unlock`, {}),
      await call('GET', `/v1/assets/${canvasId}/snapshots`),
      await call('GET', `/v1/assets/${canvasId}/snapshots?pageSize=5`),
      await call('PUT', `/v1/assets/${id}/tags`, { add: ['cat', 'cute'] }),
      await call('PUT', `/v1/assets/${id}/tags`, { add: ['a,b'] }),
      await call('POST', `/v1/assets/${id}/copy`, {}),
      await call('POST', `/v1/assets/${id}/copy`, {}, b.auth.projectMember),
      await call('POST', `/v1/assets/${id}/download`, { targetFormat: 'jpeg' }),
      await call('POST', `/v1/assets/${id}/download`, { targetFormat: 'bmp' }),
    ];
    const batch = await call('POST', '/v1/assets/download', { assetIds: [id, canvasId] });
    const jobId: string = batch.body.jobId;
    calls.push(batch, await call('POST', '/v1/assets/download', {}));
    await waitFor(async () => ['success', 'failure'].includes((await call('GET', `/v1/assets/download/${jobId}`)).body.jobStatus) || undefined, {
      timeoutMs: 20_000,
      intervalMs: 100,
      what: `download ${jobId}`,
    });
    calls.push(
      await call('GET', `/v1/assets/download/${jobId}`),
      await call('GET', `/v1/assets/download/${jobId}`, undefined, b.auth.projectMember),
      await call('DELETE', '/v1/assets', { assetIds: [UNKNOWN_ASSET] }),
      await call('DELETE', '/v1/assets', { assetIds: [canvasId] }),
    );
    expect(statuses(calls)).toEqual([
      200, 400, 401, 200, 200, 400, 404, 200, 200, 200, 200, 400, 400, 401, 200, 400, 200, 200, 200, 404, 200, 404, 200, 400,
      200, 409, 200, 409, 200, 400, 200, 400, 200, 400, 200, 404, 200, 400, 200, 400, 200, 404, 404, 200,
    ]);
    expect(problems(calls)).toEqual([]);
  });

  it('answers every upload route, successes and errors, as documented', async () => {
    const created = await call('POST', '/v1/uploads', { fileName: 'a.mp4', fileSize: 1000, contentType: 'video/mp4', kind: 'video' });
    const uploadId: string = created.body.upload.id;
    const calls: Call[] = [
      created,
      await call('POST', '/v1/uploads', {}),
      await call('GET', `/v1/uploads/${uploadId}`),
      await call('GET', '/v1/uploads/upload_01JD6Z3Q9V8K2M4N6P8R0T2V4X'),
      await call('POST', `/v1/uploads/${uploadId}/action`, { action: 'explode' }),
      await call('POST', `/v1/uploads/${uploadId}/action`, { action: 'cancel' }),
      await call('GET', `/v1/uploads/${uploadId}`),
    ];
    expect(statuses(calls)).toEqual([200, 400, 200, 404, 400, 200, 200]);
    expect(problems(calls)).toEqual([]);
  });

  it('documents pageSize as the pipe applies it: an integer within its bounds', async () => {
    for (const [path, min, max, dflt] of [
      ['/v1/assets', 1, 100, 50],
      ['/v1/assets/public', 1, 100, 50],
      ['/v1/assets/{assetId}/snapshots', 10, 100, 10],
    ] as const) {
      const pageSize = doc.paths[path].get.parameters.find((p: Json) => p.name === 'pageSize');
      expect(pageSize.schema).toMatchObject({ type: 'integer', minimum: min, maximum: max, default: dflt });
    }
  });

  it('documents the date filters as date-times', async () => {
    for (const path of ['/v1/assets', '/v1/assets/public']) {
      for (const name of ['createdBefore', 'createdAfter', 'updatedBefore', 'updatedAfter']) {
        const param = doc.paths[path].get.parameters.find((p: Json) => p.name === name);
        expect({ name, ...param.schema }).toMatchObject({ name, type: 'string', format: 'date-time' });
      }
    }
  });
});
