import sharp from 'sharp';
import { probeImage } from '../core/images';
import { embeddable, IMAGE_EMBEDDING_DIMENSIONS, imageEmbedding } from './image-embedding';

/** A PNG drawn from a per-pixel function returning [r, g, b]. */
async function draw(
  width: number,
  height: number,
  paint: (x: number, y: number) => number[],
): Promise<Buffer> {
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set(paint(x, y), (y * width + x) * 3);
  return sharp(data, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

const noise = (x: number, y: number, amp: number) =>
  ((((x * 73856093) ^ (y * 19349663)) >>> 0) % (2 * amp + 1)) - amp;
const clamp = (v: number) => Math.max(0, Math.min(255, v));
const cosine = (a: number[], b: number[]) => a.reduce((s, v, i) => s + v * b[i], 0);

describe('image embedding', () => {
  it('is a deterministic unit vector of 1024 numbers', async () => {
    const png = await draw(50, 40, (x, y) => [x * 5, y * 6, 100]);
    const v = await imageEmbedding(png);
    expect(v).toHaveLength(IMAGE_EMBEDDING_DIMENSIONS);
    expect(Math.hypot(...v)).toBeCloseTo(1, 4);
    expect(await imageEmbedding(png)).toEqual(v);
  });

  it('scores two red-ish pictures closer than a red and a blue one', async () => {
    // A red disc on dark red, and a crimson square on a darker red: different shapes, similar colours.
    const red1 = await draw(96, 96, (x, y) =>
      ((x - 48) ** 2 + (y - 48) ** 2 < 900 ? [220, 40, 40] : [110, 20, 25]).map((v) =>
        clamp(v + noise(x, y, 10)),
      ),
    );
    const red2 = await draw(80, 120, (x, y) =>
      (x > 20 && x < 60 && y > 30 && y < 90 ? [200, 30, 50] : [90, 15, 20]).map((v) =>
        clamp(v + noise(x, y, 12)),
      ),
    );
    const blue = await draw(96, 96, (x, y) =>
      ((x - 48) ** 2 + (y - 48) ** 2 < 900 ? [40, 60, 220] : [20, 25, 110]).map((v) =>
        clamp(v + noise(x, y, 10)),
      ),
    );
    const [a, b, c] = await Promise.all([red1, red2, blue].map((png) => imageEmbedding(png)));
    expect(cosine(a, b)).toBeGreaterThan(cosine(a, c) + 0.3);
    // The same disc in blue shares its layout and edges (half the weight), not its colours.
    expect(cosine(a, c)).toBeGreaterThan(0.3);
    expect(cosine(a, c)).toBeLessThan(0.6);
  });

  it('scores the same picture resized and re-encoded near 1, and its mirror lower (same colours, other layout)', async () => {
    const picture = await draw(200, 150, (x, y) => [clamp(x * 1.2), clamp(255 - y * 1.5), (x * y) % 200]);
    const smaller = await sharp(picture).resize(100, 75).jpeg({ quality: 80 }).toBuffer();
    const mirrored = await sharp(picture).flop().png().toBuffer();
    const [p, s, m] = await Promise.all([picture, smaller, mirrored].map((png) => imageEmbedding(png)));
    expect(cosine(p, s)).toBeGreaterThan(0.95);
    // Same colours (half the weight), layout and edges mirrored.
    expect(cosine(p, m)).toBeLessThan(cosine(p, s) - 0.1);
    expect(cosine(p, m)).toBeGreaterThan(0.5);
  });

  it('is the same from the pixels a probe kept as from the bytes (8-bit PNGs: grey, alpha, RGB, RGBA, palette)', async () => {
    const raw = (channels: number) => {
      const data = Buffer.alloc(97 * 61 * channels);
      for (let i = 0; i < data.length; i++) data[i] = (i * 7 + ((i * 13) % 29)) & 255;
      return sharp(data, { raw: { width: 97, height: 61, channels: channels as 1 | 2 | 3 | 4 } });
    };
    const pngs = [
      ...(await Promise.all([1, 2, 3, 4].map((channels) => raw(channels).png().toBuffer()))),
      await raw(4).png({ palette: true, colours: 16 }).toBuffer(),
    ];
    for (const png of pngs) {
      const probed = await probeImage(png);
      expect(probed.pixels).toBeDefined();
      expect(await imageEmbedding(png, probed.pixels)).toEqual(await imageEmbedding(png));
    }
  });

  it('embeds pictures, not data maps or SVG', () => {
    expect(embeddable({ kind: 'image', type: 'uploaded', mimeType: 'image/png' })).toBe(true);
    expect(embeddable({ kind: 'image', type: 'inference-txt2img', mimeType: 'image/webp' })).toBe(true);
    expect(embeddable({ kind: 'image', type: 'detection', mimeType: 'image/png' })).toBe(false);
    expect(embeddable({ kind: 'image', type: 'texture-normal', mimeType: 'image/png' })).toBe(false);
    expect(embeddable({ kind: 'image', type: 'vectorization', mimeType: 'image/svg+xml' })).toBe(false);
    expect(embeddable({ kind: 'json', type: 'canvas', mimeType: 'application/json' })).toBe(false);
  });
});
