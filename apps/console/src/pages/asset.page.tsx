import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { get, send } from '../api/api-client';
import type { Asset, AssetList, Collection } from '../api/types';
import { useAction, useApi } from '../api/use-api';
import { AssetGrid } from '../components/asset-thumb';
import { ErrorMessage } from '../components/error-message';
import { formatBytes, formatDate } from '../components/format';

const FORMATS = ['png', 'jpeg', 'webp', 'avif', 'tiff', 'gif'];

export function AssetPage() {
  const { assetId = '' } = useParams();
  const asset = useApi(() => get<{ asset: Asset }>(`/v1/assets/${assetId}`).then((r) => r.asset), assetId);
  const children = useApi(
    () => get<AssetList>('/v1/assets', { parentAssetId: assetId, pageSize: 50 }),
    assetId,
  );

  if (asset.error) return <ErrorMessage error={asset.error} />;
  if (!asset.data) return <p className="muted">Loading…</p>;
  const a = asset.data;
  const title = a.metadata.name ?? a.id;

  return (
    <section>
      <p>
        <Link to="/assets">← Assets</Link>
      </p>
      <h1>{title}</h1>
      <div className="asset-layout">
        {a.kind === 'image' && a.url && <img className="asset-image" src={a.url} alt={`Asset ${title}`} />}
        <dl className="details">
          <dt>Id</dt>
          <dd>
            <code>{a.id}</code>
          </dd>
          <dt>Type</dt>
          <dd>{a.metadata.type}</dd>
          <dt>Format</dt>
          <dd>
            {a.mimeType}
            {a.properties.width ? `, ${a.properties.width}×${a.properties.height}` : ''},{' '}
            {formatBytes(a.properties.size)}
          </dd>
          <dt>Status</dt>
          <dd>{a.status}</dd>
          <dt>Privacy</dt>
          <dd>{a.privacy}</dd>
          <dt>Created</dt>
          <dd>{formatDate(a.createdAt)}</dd>
          {a.metadata.parentJobId && (
            <>
              <dt>Made by job</dt>
              <dd>
                <Link to={`/jobs/${a.metadata.parentJobId}`}>{a.metadata.parentJobId}</Link>
              </dd>
            </>
          )}
        </dl>
      </div>

      <h2>Lineage</h2>
      <dl className="details">
        <dt>Parent</dt>
        <dd>
          {a.metadata.parentId ? (
            <Link to={`/assets/${a.metadata.parentId}`}>{a.metadata.parentId}</Link>
          ) : (
            'none (an original)'
          )}
        </dd>
        <dt>Root</dt>
        <dd>
          {a.metadata.rootParentId ? (
            <Link to={`/assets/${a.metadata.rootParentId}`}>{a.metadata.rootParentId}</Link>
          ) : (
            'this asset'
          )}
        </dd>
      </dl>
      <h3>Children</h3>
      <ErrorMessage error={children.error} />
      {children.data && <AssetGrid assets={children.data.assets} label="Children" />}

      {a.kind === 'image' && (
        <p>
          <Link to={`/generate?route=pixelate&image=${a.id}`}>Pixelate this image</Link> ·{' '}
          <Link to={`/generate?image=${a.id}`}>Other generation…</Link>
        </p>
      )}

      <Tags asset={a} onChange={asset.reload} />
      <Collections asset={a} onChange={asset.reload} />
      <Download asset={a} />
    </section>
  );
}

function Tags({ asset, onChange }: { asset: Asset; onChange: () => void }) {
  const [tag, setTag] = useState('');
  const update = useAction(async (change: { add?: string[]; delete?: string[] }) => {
    await send('PUT', `/v1/assets/${asset.id}/tags`, change);
    onChange();
  });
  const add = (event: FormEvent) => {
    event.preventDefault();
    if (tag.trim()) void update.run({ add: [tag.trim()] }).then(() => setTag(''));
  };
  return (
    <>
      <h2>Tags</h2>
      {asset.tags.length ? (
        <ul className="chips">
          {asset.tags.map((t) => (
            <li key={t}>
              {t}{' '}
              <button
                type="button"
                className="link-button"
                aria-label={`Remove tag ${t}`}
                onClick={() => void update.run({ delete: [t] })}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">No tags.</p>
      )}
      <form onSubmit={add} className="inline-form">
        <div className="field">
          <label htmlFor="tag-new">New tag</label>
          <input id="tag-new" value={tag} onChange={(e) => setTag(e.target.value)} />
        </div>
        <button type="submit" disabled={update.pending}>
          Add tag
        </button>
      </form>
      <ErrorMessage error={update.error} />
    </>
  );
}

function Collections({ asset, onChange }: { asset: Asset; onChange: () => void }) {
  const all = useApi(
    () => get<{ collections: Collection[] }>('/v1/collections', { pageSize: 100 }),
    'collections',
  );
  const [chosen, setChosen] = useState('');
  const update = useAction(async (method: 'PUT' | 'DELETE', collectionId: string) => {
    await send(method, `/v1/collections/${collectionId}/assets`, { assetIds: [asset.id] });
    onChange();
  });
  const names = new Map((all.data?.collections ?? []).map((c) => [c.id, c.name]));
  const others = (all.data?.collections ?? []).filter((c) => !asset.collectionIds.includes(c.id));
  return (
    <>
      <h2>Collections</h2>
      {asset.collectionIds.length ? (
        <ul className="chips">
          {asset.collectionIds.map((id) => (
            <li key={id}>
              <Link to={`/assets?collectionId=${id}`}>{names.get(id) ?? id}</Link>{' '}
              <button
                type="button"
                className="link-button"
                aria-label={`Remove from ${names.get(id) ?? id}`}
                onClick={() => void update.run('DELETE', id)}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">In no collection.</p>
      )}
      {others.length > 0 && (
        <form
          className="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (chosen) void update.run('PUT', chosen);
          }}
        >
          <div className="field">
            <label htmlFor="collection-add">Add to collection</label>
            <select id="collection-add" value={chosen} onChange={(e) => setChosen(e.target.value)}>
              <option value="">Choose…</option>
              {others.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" disabled={!chosen || update.pending}>
            Add
          </button>
        </form>
      )}
      <ErrorMessage error={all.error ?? update.error} />
    </>
  );
}

/** POST …/download answers a signed, time-limited link to the image in the chosen format. */
function Download({ asset }: { asset: Asset }) {
  const [format, setFormat] = useState('png');
  const [link, setLink] = useState<{ url: string; expiresAt: string; size: number }>();
  const request = useAction(async () => {
    setLink(await send('POST', `/v1/assets/${asset.id}/download`, { targetFormat: format }));
  });
  if (asset.kind !== 'image') return null;
  return (
    <>
      <h2>Download</h2>
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          void request.run();
        }}
      >
        <div className="field">
          <label htmlFor="download-format">Format</label>
          <select id="download-format" value={format} onChange={(e) => setFormat(e.target.value)}>
            {FORMATS.map((f) => (
              <option key={f}>{f}</option>
            ))}
          </select>
        </div>
        <button type="submit" disabled={request.pending}>
          Prepare download
        </button>
      </form>
      <ErrorMessage error={request.error} />
      {link && (
        <p>
          <a href={link.url} download>
            Download {format} ({formatBytes(link.size)})
          </a>{' '}
          <span className="muted">link valid until {formatDate(link.expiresAt)}</span>
        </p>
      )}
    </>
  );
}
