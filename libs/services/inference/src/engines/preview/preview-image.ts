import { createHash } from 'node:crypto';
import sharp from 'sharp';

export interface PreviewSpec {
  mode: string;
  width: number;
  height: number;
  /** Everything the picture depends on (request fields, seed, output index), hashed. */
  fingerprint: unknown;
  /** Printed on the image. */
  prompt?: string;
  seed: number;
  index: number;
  /** An input picture to show under the overlay (img2img-like modes), any size. */
  base?: Buffer;
}

/** 32 pseudo-random bytes from the canonical JSON of a value: the same request gives the same bytes. */
export function digest(value: unknown): Buffer {
  return createHash('sha256').update(canonical(value)).digest();
}

/** JSON with sorted keys, so field order never changes a preview. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * A placeholder picture that says what it is: a gradient and a few shapes
 * whose colours and positions come from a hash of the request, and a band
 * reading "PREVIEW", the mode, the seed and the start of the prompt. Rendered
 * from SVG by sharp: the same spec gives the same PNG bytes.
 */
export async function previewPng(spec: PreviewSpec): Promise<Buffer> {
  return sharp(await previewLayers(spec))
    .png({ compressionLevel: 6 })
    .toBuffer();
}

/** The same picture as an SVG document (vectorize previews). */
export function previewSvg(spec: PreviewSpec): string {
  return svg(spec, false);
}

async function previewLayers(spec: PreviewSpec): Promise<Buffer> {
  const overlay = Buffer.from(svg(spec, Boolean(spec.base)));
  if (!spec.base) return overlay;
  const base = await sharp(spec.base)
    .rotate()
    .resize(spec.width, spec.height, { fit: 'cover' })
    .png()
    .toBuffer();
  return sharp(base)
    .composite([{ input: overlay }])
    .png()
    .toBuffer();
}

function svg(spec: PreviewSpec, overBase: boolean): string {
  const bytes = digest(spec.fingerprint);
  const { width: w, height: h } = spec;
  const colour = (i: number) =>
    `hsl(${Math.round((bytes[i] / 255) * 360)},${45 + (bytes[i + 1] % 40)}%,${35 + (bytes[i + 2] % 35)}%)`;
  const angle = (bytes[3] / 255) * 360;
  const shapes: string[] = [];
  for (let s = 0; s < 6; s++) {
    const b = (k: number) => bytes[(6 + s * 4 + k) % bytes.length];
    const cx = Math.round((b(0) / 255) * w);
    const cy = Math.round((b(1) / 255) * h);
    const size = Math.round(((16 + (b(2) % 48)) / 100) * Math.min(w, h) * 0.5);
    const fill = colour((s * 5 + 9) % 29);
    const opacity = overBase ? 0.18 : 0.35 + (b(3) % 35) / 100;
    shapes.push(
      s % 2 === 0
        ? `<circle cx="${cx}" cy="${cy}" r="${size}" fill="${fill}" fill-opacity="${opacity.toFixed(2)}"/>`
        : `<rect x="${cx - size}" y="${cy - size / 2}" width="${size * 2}" height="${size}" rx="${Math.round(size / 6)}" fill="${fill}" fill-opacity="${opacity.toFixed(2)}" transform="rotate(${b(3) % 90} ${cx} ${cy})"/>`,
    );
  }
  const font = Math.max(10, Math.round(Math.min(w, h) / 22));
  const band = Math.round(font * 3.6);
  const prompt = spec.prompt
    ? escapeXml(truncate(spec.prompt, Math.max(12, Math.floor((w / font) * 1.7))))
    : '';
  const title = escapeXml(
    `PREVIEW · ${spec.mode} · seed ${spec.seed}${spec.index ? ` · #${spec.index + 1}` : ''}`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">
<defs><linearGradient id="g" gradientTransform="rotate(${angle.toFixed(1)} .5 .5)"><stop offset="0" stop-color="${colour(0)}"/><stop offset="1" stop-color="${colour(12)}"/></linearGradient></defs>
${overBase ? '' : `<rect width="${w}" height="${h}" fill="url(#g)"/>`}
${shapes.join('\n')}
<rect x="0" y="${h - band}" width="${w}" height="${band}" fill="#000" fill-opacity="0.55"/>
<text x="${Math.round(font * 0.6)}" y="${h - band + Math.round(font * 1.4)}" font-family="DejaVu Sans, sans-serif" font-size="${font}" font-weight="bold" fill="#fff">${title}</text>
<text x="${Math.round(font * 0.6)}" y="${h - band + Math.round(font * 2.9)}" font-family="DejaVu Sans, sans-serif" font-size="${Math.round(font * 0.8)}" fill="#eee">${prompt}</text>
</svg>`;
}

function truncate(text: string, max: number): string {
  const flat = text
    .replace(/\s+/g, ' ')
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
    .trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

function escapeXml(text: string): string {
  return text.replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!,
  );
}
