import { COLOUR_NAMES } from './colour-names';
import { fnv1a } from './text-embedding';

/**
 * Prompt aspects and the words that mark a phrase as one of them. A phrase
 * (a comma- or semicolon-separated part of the prompt) belongs to the first
 * aspect one of whose markers it contains as a whole word or phrase.
 */
const ASPECTS = {
  style: [
    'watercolour',
    'watercolor',
    'oil painting',
    'painting',
    'illustration',
    'pixel art',
    'anime',
    'manga',
    'cartoon',
    'comic',
    'render',
    '3d',
    'low poly',
    'isometric',
    'sketch',
    'ink',
    'pencil',
    'photo',
    'photograph',
    'photography',
    'photorealistic',
    'concept art',
    'vector',
    'flat design',
    'art style',
    'style',
    'pastel',
    'claymation',
    'voxel',
    'digital art',
    'minimalist',
    'art nouveau',
    'ukiyo-e',
  ],
  lighting: [
    'lighting',
    'light',
    'lit',
    'sunlight',
    'sunset',
    'sunrise',
    'golden hour',
    'dusk',
    'dawn',
    'neon',
    'backlit',
    'rim light',
    'shadows',
    'glow',
    'glowing',
    'moonlight',
    'candlelight',
    'volumetric',
  ],
  composition: [
    'close-up',
    'closeup',
    'wide shot',
    'wide angle',
    'aerial',
    'top-down',
    'view',
    'angle',
    'shot',
    'portrait',
    'landscape',
    'centered',
    'symmetrical',
    'rule of thirds',
    'bokeh',
    'depth of field',
    'lens',
    'mm',
    'framing',
    'panorama',
    'macro',
  ],
  colour: ['palette', 'colours', 'colors', 'monochrome', 'black and white', 'tones', 'hues', ...COLOUR_NAMES],
  mood: [
    'moody',
    'calm',
    'serene',
    'dramatic',
    'cozy',
    'cosy',
    'eerie',
    'whimsical',
    'melancholic',
    'cheerful',
    'mysterious',
    'epic',
    'peaceful',
    'dark',
    'playful',
    'atmosphere',
    'atmospheric',
  ],
  quality: [
    'detailed',
    'highly detailed',
    '4k',
    '8k',
    'hd',
    'uhd',
    'high quality',
    'sharp',
    'masterpiece',
    'high resolution',
    'intricate',
    'best quality',
  ],
} as const;
type Aspect = keyof typeof ASPECTS;
const ASPECT_ORDER: readonly Aspect[] = ['style', 'lighting', 'composition', 'colour', 'mood', 'quality'];
const LABELS: Record<Aspect | 'subject' | 'details', string> = {
  subject: 'Subject',
  details: 'Details',
  style: 'Style',
  lighting: 'Lighting',
  composition: 'Composition',
  colour: 'Colour',
  mood: 'Mood',
  quality: 'Quality',
};

/** What completion adds for an aspect the prompt leaves open (stock phrases, picked by seed). */
const SUGGESTIONS: Record<Aspect, readonly string[]> = {
  style: [
    'digital illustration',
    'watercolour painting',
    'cinematic photograph',
    'flat vector art',
    'oil painting',
    '3d render',
  ],
  lighting: [
    'soft morning light',
    'golden hour lighting',
    'dramatic rim light',
    'overcast diffuse light',
    'warm lamplight',
    'neon glow',
  ],
  composition: [
    'wide shot',
    'centered composition',
    'close-up',
    'low angle view',
    'rule of thirds framing',
    'aerial view',
  ],
  colour: [
    'muted earthy palette',
    'vibrant complementary colours',
    'pastel tones',
    'teal and orange palette',
    'monochrome blue tones',
    'warm autumn palette',
  ],
  mood: [
    'calm atmosphere',
    'dramatic mood',
    'whimsical mood',
    'mysterious atmosphere',
    'cheerful mood',
    'serene atmosphere',
  ],
  quality: [
    'highly detailed',
    'sharp focus',
    'intricate details',
    'high resolution',
    'clean lines',
    'fine texture',
  ],
};

/** The prompt's phrases sorted into subject, details and the aspects above. */
export interface ParsedPrompt {
  subject: string;
  details: string[];
  aspects: Partial<Record<Aspect, string[]>>;
}

export function parsePrompt(prompt: string): ParsedPrompt {
  const phrases = prompt
    .split(/[,;\n]+/)
    .map((p) => p.trim().replace(/\s+/g, ' '))
    .filter(Boolean);
  const parsed: ParsedPrompt = { subject: '', details: [], aspects: {} };
  for (const phrase of phrases) {
    const aspect = parsed.subject ? aspectOf(phrase) : undefined;
    if (aspect) (parsed.aspects[aspect] ??= []).push(phrase);
    else if (!parsed.subject) parsed.subject = phrase;
    else parsed.details.push(phrase);
  }
  return parsed;
}

function aspectOf(phrase: string): Aspect | undefined {
  const lower = ` ${phrase.toLowerCase()} `;
  return ASPECT_ORDER.find((aspect) =>
    ASPECTS[aspect].some((marker) =>
      new RegExp(`[^\\p{L}\\p{N}]${escape(marker)}[^\\p{L}\\p{N}]`, 'u').test(lower),
    ),
  );
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Picks the suggestion of `aspect` for result `index` (distinct results differ in every aspect they fill). */
function suggestion(aspect: Aspect, seed: number, index: number): string {
  const list = SUGGESTIONS[aspect];
  return list[(fnv1a(aspect, seed >>> 0) + index) % list.length];
}

/**
 * `structured`: the prompt's own phrases laid out by aspect ("Subject: …
 * Style: …"). Result 0 is only the user's words; further results fill the
 * aspects left open with stock suggestions, different in each result.
 */
export function structuredPrompts(prompt: string, count: number, seed: number): string[] {
  const parsed = parsePrompt(prompt);
  return Array.from({ length: count }, (_, i) => {
    const parts = [`${LABELS.subject}: ${parsed.subject}.`];
    if (parsed.details.length) parts.push(`${LABELS.details}: ${parsed.details.join(', ')}.`);
    for (const aspect of ASPECT_ORDER) {
      const own = parsed.aspects[aspect];
      if (own) parts.push(`${LABELS[aspect]}: ${own.join(', ')}.`);
      else if (i > 0) parts.push(`${LABELS[aspect]}: ${suggestion(aspect, seed, i - 1)}.`);
    }
    return parts.join(' ');
  });
}

/**
 * `completion`: the prompt as written, followed by a stock phrase for each
 * aspect (style, lighting, composition, colour, mood, quality) it does not
 * mention; each result picks different phrases.
 */
export function completedPrompts(prompt: string, count: number, seed: number): string[] {
  const parsed = parsePrompt(prompt);
  const open = ASPECT_ORDER.filter((a) => !parsed.aspects[a]);
  const base = prompt.trim().replace(/[,;\s]+$/, '');
  return Array.from({ length: count }, (_, i) =>
    open.length ? `${base}, ${open.map((a) => suggestion(a, seed, i)).join(', ')}` : base,
  );
}

/**
 * `contextual`: the prompt (or "an image") placed in the look measured on the
 * reference images — the synthesis of describe-style and its palette;
 * further results add one stock composition each.
 */
export function contextualPrompts(
  prompt: string | undefined,
  look: string,
  count: number,
  seed: number,
): string[] {
  const base = prompt?.trim().replace(/[,;\s]+$/, '') || 'an image';
  return Array.from({ length: count }, (_, i) =>
    i === 0 ? `${base}, ${look}` : `${base}, ${look}, ${suggestion('composition', seed, i - 1)}`,
  );
}
