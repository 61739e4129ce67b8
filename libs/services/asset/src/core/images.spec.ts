import sharp from 'sharp';
import { hasFewColours, probeImage, webRendition } from './images';

/** A width × height image from a per-pixel function returning `channels` values. */
function raw(width: number, height: number, channels: 3 | 4, paint: (x: number, y: number) => number[]) {
  const data = Buffer.alloc(width * height * channels);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) data.set(paint(x, y), (y * width + x) * channels);
  return sharp(data, { raw: { width, height, channels } });
}

/** Pixel art: 16 × 16 blocks of 6 colours. */
const blocks = (x: number, y: number) => {
  const k = ((x >> 4) * 3 + (y >> 4) * 5) % 6;
  return [k * 40, 255 - k * 30, (k * 70) % 256, 255];
};
const photo = (x: number, y: number) => [
  (x * 3 + ((x * 7 + y * 13) % 23)) & 255,
  (y * 2 + x) & 255,
  (x ^ y) & 255,
];

describe('images: probe and web rendition', () => {
  it('keeps the decoded pixels of 8-bit PNGs (orientation applied), not of JPEG or 16-bit PNG', async () => {
    const png = await raw(40, 24, 4, blocks).png().toBuffer();
    const probed = await probeImage(png);
    expect(probed).toMatchObject({ format: 'png', width: 40, height: 24, hasAlpha: true });
    expect(probed.pixels).toMatchObject({ width: 40, height: 24, channels: 4 });
    expect(probed.pixels!.data.equals(await sharp(png).raw().toBuffer())).toBe(true);
    expect((await probeImage(await raw(40, 24, 3, photo).jpeg().toBuffer())).pixels).toBeUndefined();
    const png16 = await raw(40, 24, 3, photo).toColourspace('rgb16').png().toBuffer();
    expect((await probeImage(png16)).pixels).toBeUndefined();
  });

  it('counts colours up to a limit', () => {
    const pixels = (channels: 3 | 4, colours: number) => {
      const data = Buffer.alloc(64 * 64 * channels);
      for (let i = 0; i < 64 * 64; i++) data[i * channels] = (i * 7) % colours;
      return { data, width: 64, height: 64, channels };
    };
    expect(hasFewColours(pixels(4, 256))).toBe(true);
    expect(hasFewColours(pixels(4, 255), 254)).toBe(false);
    expect(hasFewColours(pixels(3, 200), 200)).toBe(true);
    expect(hasFewColours(pixels(3, 200), 199)).toBe(false);
  });

  it('renders pixel art as lossless WebP (same pixels) and pictures as lossy WebP, when smaller', async () => {
    const art = await raw(128, 96, 4, blocks).png().toBuffer();
    const artWebp = (await webRendition(art, await probeImage(art)))!;
    expect(artWebp.length).toBeLessThan(art.length);
    expect(
      (await sharp(artWebp).ensureAlpha().raw().toBuffer()).equals(await sharp(art).raw().toBuffer()),
    ).toBe(true);

    const picture = await raw(128, 96, 3, photo).png().toBuffer();
    const pictureWebp = (await webRendition(picture, await probeImage(picture)))!;
    expect(pictureWebp.length).toBeLessThan(picture.length);
    expect(await sharp(pictureWebp).metadata()).toMatchObject({ format: 'webp', width: 128, height: 96 });
    expect((await sharp(pictureWebp).raw().toBuffer()).equals(await sharp(picture).raw().toBuffer())).toBe(
      false,
    );
  });
});
