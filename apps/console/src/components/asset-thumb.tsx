import { Link } from 'react-router';
import type { Asset } from '../api/types';

/** A gallery tile: the image (lazy), its name or type, linking to the asset's page. */
export function AssetThumb({ asset }: { asset: Asset }) {
  const name = asset.metadata.name ?? asset.metadata.type;
  return (
    <li className="thumb">
      <Link to={`/assets/${asset.id}`} aria-label={`${name} (${asset.id})`}>
        {asset.kind === 'image' && asset.url ? (
          <img src={asset.url} alt="" loading="lazy" width={160} height={160} />
        ) : (
          <span className="thumb-placeholder" aria-hidden="true">
            {asset.kind}
          </span>
        )}
        <span className="thumb-caption">{name}</span>
      </Link>
    </li>
  );
}

export function AssetGrid({ assets, label }: { assets: Asset[]; label: string }) {
  if (!assets.length) return <p className="muted">No assets.</p>;
  return (
    <ul className="gallery" aria-label={label}>
      {assets.map((asset) => (
        <AssetThumb key={asset.id} asset={asset} />
      ))}
    </ul>
  );
}
