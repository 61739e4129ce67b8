import { useState, type ChangeEvent } from 'react';
import { useSearchParams } from 'react-router';
import { get, send } from '../api/api-client';
import type { Asset, AssetList } from '../api/types';
import { useAction, useApi } from '../api/use-api';
import { AssetGrid } from '../components/asset-thumb';
import { ErrorMessage } from '../components/error-message';
import { QueryFilters } from '../components/query-filters';

const PAGE_SIZE = 24;

export function AssetsPage() {
  const [params, setParams] = useSearchParams();
  const filters = Object.fromEntries(params.entries());
  const key = params.toString();
  const [more, setMore] = useState<{ key: string; assets: Asset[]; next?: string }>({ key, assets: [] });
  const list = useApi(() => get<AssetList>('/v1/assets', { ...filters, pageSize: PAGE_SIZE }), key);
  const extra = more.key === key ? more : { key, assets: [] as Asset[], next: undefined };
  const next = extra.assets.length ? extra.next : list.data?.nextPaginationToken;

  const loadMore = useAction(async () => {
    const page = await get<AssetList>('/v1/assets', {
      ...filters,
      pageSize: PAGE_SIZE,
      paginationToken: next,
    });
    setMore({ key, assets: [...extra.assets, ...page.assets], next: page.nextPaginationToken });
  });

  return (
    <section>
      <h1>Assets</h1>
      <UploadForm onUploaded={list.reload} />
      <QueryFilters
        service="asset-service"
        path="/v1/assets"
        skip={['pageSize', 'paginationToken', 'projectId', 'originalAssets']}
        current={filters}
        onApply={(next) => setParams(next)}
      />
      <ErrorMessage error={list.error} />
      {list.loading && !list.data && <p className="muted">Loading…</p>}
      {list.data && <AssetGrid assets={[...list.data.assets, ...extra.assets]} label="Gallery" />}
      <ErrorMessage error={loadMore.error} />
      {next && (
        <button
          type="button"
          className="secondary"
          disabled={loadMore.pending}
          onClick={() => void loadMore.run()}
        >
          {loadMore.pending ? 'Loading…' : 'Load more'}
        </button>
      )}
    </section>
  );
}

/** POST /v1/assets with the file as a data URL: the API reads the format from the bytes. */
function UploadForm({ onUploaded }: { onUploaded: () => void }) {
  const [message, setMessage] = useState('');
  const upload = useAction(async (file: File) => {
    const image = await readAsDataUrl(file);
    const { asset } = await send<{ asset: Asset }>('POST', '/v1/assets', { image, name: file.name });
    setMessage(`Uploaded ${file.name} as ${asset.id}.`);
    onUploaded();
  });
  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    setMessage('');
    if (file) void upload.run(file).finally(() => (event.target.value = ''));
  };
  return (
    <div className="upload">
      <div className="field">
        <label htmlFor="upload-file">Upload an image</label>
        <input id="upload-file" type="file" accept="image/*" onChange={onFile} disabled={upload.pending} />
      </div>
      <p role="status" className="muted">
        {upload.pending ? 'Uploading…' : message}
      </p>
      <ErrorMessage error={upload.error} />
    </div>
  );
}

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('could not read the file'));
    reader.readAsDataURL(file);
  });
}
