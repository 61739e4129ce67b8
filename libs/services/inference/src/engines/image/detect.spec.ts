import { detectionMap } from './detect';
import type { Raster } from './raster';

/** A one-channel raster of `value(x, y)`. */
const grey = (width: number, height: number, value: (x: number, y: number) => number): Raster => ({
  data: Uint8Array.from({ length: width * height }, (_, i) => value(i % width, Math.floor(i / width))),
  width,
  height,
  channels: 1,
});

describe('detectionMap', () => {
  describe('canny thresholds on the |gx| + |gy| scale, beyond 255', () => {
    // A sharp black-to-white step: after the σ 1 blur its gradient peaks between 255 and 1530.
    const step = grey(32, 32, (x) => (x < 16 ? 0 : 255));
    const edgeCount = (threshold: number) =>
      detectionMap(step, 'canny', { lowThreshold: threshold, highThreshold: threshold }).data.filter(
        (v) => v === 255,
      ).length;

    it('keeps the step at 400', () => {
      expect(edgeCount(400)).toBeGreaterThanOrEqual(30);
    });

    it('drops it at 1000, which a clamp to 255 would have kept', () => {
      expect(edgeCount(1000)).toBe(0);
    });

    it('finds nothing above 1530, the largest magnitude there is', () => {
      const checker = grey(32, 32, (x, y) => ((x + y) % 2 ? 255 : 0));
      expect(
        detectionMap(checker, 'canny', { lowThreshold: 1531, highThreshold: 1531 }).data.some((v) => v > 0),
      ).toBe(false);
    });
  });

  describe('grayscale contrast 1 + factor / 50', () => {
    // Luminance 140: 12 above mid-grey, so the output is 128 + 12 × contrast.
    const flat = grey(8, 8, () => 140);
    const at = (factor: number) =>
      detectionMap(flat, 'grayscale', { factor, removeBackground: false }).data[0];

    it('honours factors above 100', () => {
      expect(at(100)).toBe(164);
      expect(at(200)).toBe(188);
    });

    it('lowers the contrast for a negative factor, down to flat grey, never inverting', () => {
      expect(at(-25)).toBe(134);
      expect(at(-50)).toBe(128);
      expect(at(-500)).toBe(128);
    });
  });
});
