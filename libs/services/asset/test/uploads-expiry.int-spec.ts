import { waitFor } from '@genasset/testing';
import {
  startAssetHarnessOn,
  STORES,
  type ServiceHarness,
  type StoreHarness,
  type Tenant,
} from './support/asset-fixtures';

/** Pending uploads expire (here after 1 s): status failed, multipart upload aborted, nothing left in storage. */
describe.each(STORES)('upload expiry on the %s store', (store) => {
  let stores: StoreHarness;
  let harness: ServiceHarness;
  let t: Tenant;

  beforeAll(async () => {
    stores = await startAssetHarnessOn(store, {
      ASSET_UPLOAD_TTL: '1s',
      ASSET_UPLOAD_POLL_INTERVAL: '100ms',
    });
    harness = stores.harness;
    t = await harness.tenant();
  });
  afterAll(() => stores?.close());

  it('a pending upload not completed in time fails as expired; completing it then → 409', async () => {
    const res = await harness.request('POST', '/v1/uploads', {
      auth: t.auth.projectMember,
      body: { fileName: 'v.mp4', fileSize: 1000, contentType: 'video/mp4', kind: 'video' },
    });
    expect(res.status).toBe(200);
    const { id, parts } = res.body.upload;
    // Part URLs never outlive the upload.
    expect(Date.parse(parts[0].expires)).toBeLessThanOrEqual(Date.parse(res.body.upload.expiresAt));
    const put = await fetch(parts[0].url, { method: 'PUT', body: Buffer.alloc(1000, 1) });
    const expired = await waitFor(
      async () => {
        const upload = (await harness.request('GET', `/v1/uploads/${id}`, { auth: t.auth.projectMember }))
          .body.upload;
        return upload.status === 'failed' ? upload : undefined;
      },
      { timeoutMs: 10_000, intervalMs: 100, what: 'upload expiry' },
    );
    expect(expired.errorMessage).toMatch(/^expired/);
    const complete = await harness.request('POST', `/v1/uploads/${id}/action`, {
      auth: t.auth.projectMember,
      // On a loaded machine the 1 s upload may expire before the PUT lands (S3 then refuses it and
      // sends no ETag); the completion must be refused for the expiry either way, so send a well-formed one.
      body: {
        action: 'complete',
        parts: [{ partNumber: 1, etag: put.headers.get('etag') ?? '"0f343b0931126a20f133d67c2b018a3b"' }],
      },
    });
    expect(complete.status).toBe(409);
    const [row] = await harness.db.query<{ object_key: string; multipart_upload_id: string }>(
      'SELECT object_key, multipart_upload_id FROM assets.uploads WHERE id = $1',
      [id],
    );
    expect(await stores.objects(row.object_key)).toEqual([]);
    // The store's multipart upload is aborted with it, just after the status changed.
    const gone = await waitFor(
      () =>
        stores.store.listParts(row.object_key, row.multipart_upload_id).then(
          () => undefined,
          (error: unknown) => error,
        ),
      { timeoutMs: 10_000, intervalMs: 100, what: 'multipart upload aborted' },
    );
    expect(gone).toMatchObject({ code: 'NoSuchUpload' });
  });
});
