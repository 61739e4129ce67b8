import type { ImageAnalysis, PaletteColour } from './image-analysis';
import { round } from './image-analysis';

/*
 * Words for measurements. Thresholds: L* bands of ~20; RMS contrast of L*
 * (a flat graphic < 8, most photos 15–25, a hard black-and-white split ~50); colourfulness bands from Hasler
 * & Süsstrunk's perceptual scale (15 slightly, 33 moderately, 45 averagely,
 * 59 quite, 82 highly colourful); edge density measured on a ≤160 px rendering.
 */
export function lightnessWord(l: number): string {
  return l < 25 ? 'very dark' : l < 40 ? 'dark' : l < 62 ? 'mid-toned' : l < 78 ? 'bright' : 'very bright';
}

export function contrastWord(c: number): string {
  return c < 8 ? 'flat' : c < 15 ? 'low-contrast' : c < 25 ? 'moderate-contrast' : 'high-contrast';
}

export function colourfulnessWord(m: number): string {
  return m < 6
    ? 'monochrome'
    : m < 22
      ? 'muted'
      : m < 45
        ? 'moderately colourful'
        : m < 70
          ? 'colourful'
          : 'vivid';
}

export function warmthWord(w: number): string {
  return w > 10 ? 'warm' : w < -6 ? 'cool' : 'neutral';
}

export function detailWord(edges: number): string {
  return edges < 0.02
    ? 'smooth, with almost no edges'
    : edges < 0.08
      ? 'soft, with few edges'
      : edges < 0.18
        ? 'moderately detailed'
        : 'busy, with dense edges and fine detail';
}

/** "sky blue and white, with touches of dark green" from a palette (shares ≥ 20 % lead, ≥ 5 % touch). */
export function paletteWords(palette: readonly PaletteColour[]): string {
  const main = palette.filter((c) => c.share >= 0.2).slice(0, 3);
  const lead = main.length ? main : palette.slice(0, 1);
  const touches = palette.filter((c) => !lead.includes(c) && c.share >= 0.05).slice(0, 2);
  const list = (names: string[]) =>
    names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
  const leadText = list(lead.map((c) => c.name));
  return touches.length ? `${leadText}, with touches of ${list(touches.map((c) => c.name))}` : leadText;
}

/**
 * A caption written from what was measured in the image: tone, contrast,
 * shape, the colours it is made of and how detailed it is, e.g. "a bright,
 * low-contrast landscape image in sky blue and white, with touches of dark
 * green; smooth, with almost no edges". It does not name objects (that needs
 * a model); `action+style` adds the colourfulness and warmth.
 */
export function caption(a: ImageAnalysis, detailsLevel?: string): string {
  const shape = a.transparency > 0.25 ? `${a.orientation} cut-out` : `${a.orientation} image`;
  const colours = a.palette.length ? ` in ${paletteWords(a.palette)}` : ' with no visible pixels';
  const style =
    detailsLevel === 'action+style'
      ? `; ${colourfulnessWord(a.colourfulness)}, ${warmthWord(a.warmth)} tones`
      : '';
  return `a ${lightnessWord(a.lightness)}, ${contrastWord(a.contrast)} ${shape}${colours}; ${detailWord(a.edgeDensity)}${style}`;
}

/** The pooled look of several images: the mean of each measurement, palettes merged by share. */
export function pooled(analyses: readonly ImageAnalysis[]): ImageAnalysis {
  const mean = (f: (a: ImageAnalysis) => number) => analyses.reduce((s, a) => s + f(a), 0) / analyses.length;
  const shares = new Map<string, PaletteColour>();
  for (const a of analyses)
    for (const c of a.palette) {
      const prev = shares.get(c.name);
      shares.set(c.name, {
        name: c.name,
        hex: prev?.hex ?? c.hex,
        share: (prev?.share ?? 0) + c.share / analyses.length,
      });
    }
  return {
    ...analyses[0],
    lightness: round(
      mean((a) => a.lightness),
      1,
    ),
    contrast: round(
      mean((a) => a.contrast),
      1,
    ),
    colourfulness: round(
      mean((a) => a.colourfulness),
      1,
    ),
    warmth: round(
      mean((a) => a.warmth),
      1,
    ),
    edgeDensity: round(
      mean((a) => a.edgeDensity),
      3,
    ),
    transparency: round(
      mean((a) => a.transparency),
      3,
    ),
    palette: [...shares.values()]
      .map((c) => ({ ...c, share: round(c.share, 3) }))
      .sort((x, y) => y.share - x.share || x.name.localeCompare(y.name)),
  };
}

/**
 * describe-style: `description` lists the measured style (palette with
 * shares and hex values, tone, contrast, saturation, warmth, detail, how
 * consistent the images are); `synthesis` is a short phrase of it.
 */
export function describeStyle(analyses: readonly ImageAnalysis[]): {
  description: string;
  synthesis: string;
} {
  const p = pooled(analyses);
  const palette = p.palette
    .slice(0, 6)
    .map((c) => `${c.name} ${c.hex} (${Math.round(c.share * 100)} %)`)
    .join(', ');
  const spread =
    analyses.length > 1 ? Math.max(...analyses.map((a) => Math.abs(a.lightness - p.lightness))) : 0;
  const consistency =
    analyses.length > 1
      ? ` Across the ${analyses.length} images the tone is ${spread < 10 ? 'consistent' : 'varied'} (L* within ±${Math.round(spread)}).`
      : '';
  const description =
    `Palette: ${palette}. ` +
    `Tone: ${lightnessWord(p.lightness)} (mean L* ${p.lightness}), ${warmthWord(p.warmth)}. ` +
    `Contrast: ${contrastWord(p.contrast)} (RMS L* ${p.contrast}). ` +
    `Saturation: ${colourfulnessWord(p.colourfulness)} (colourfulness ${p.colourfulness}). ` +
    `Detail: ${detailWord(p.edgeDensity)} (edge density ${p.edgeDensity}).${consistency}`;
  const synthesis = `${lightnessWord(p.lightness)}, ${colourfulnessWord(p.colourfulness)}, ${warmthWord(p.warmth)}, ${contrastWord(p.contrast)} look in ${paletteWords(p.palette)}`;
  return { description, synthesis };
}

/** Removes the caller's `unwantedSequences` (case-insensitive) and the doubled spaces or commas they leave. */
export function withoutUnwanted(text: string, unwanted: readonly string[]): string {
  let out = text;
  for (const seq of unwanted) {
    if (!seq.trim()) continue;
    out = out.replace(new RegExp(seq.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), '');
  }
  return out
    .replace(/\s+([,;])/g, '$1')
    .replace(/([,;])\s*([,;])/g, '$1')
    .replace(/\s{2,}/g, ' ')
    .trim();
}
