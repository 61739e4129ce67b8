import { parseColour } from './raster';

describe('parseColour', () => {
  const fallback: [number, number, number, number] = [1, 2, 3, 4];

  it('reads hex, CSS colour names, transparent and rgb()/rgba(), case-insensitively', () => {
    expect(parseColour('#fff', fallback)).toEqual([255, 255, 255, 255]);
    expect(parseColour('#FF000080', fallback)).toEqual([255, 0, 0, 128]);
    expect(parseColour(' Red ', fallback)).toEqual([255, 0, 0, 255]);
    expect(parseColour('rebeccapurple', fallback)).toEqual([102, 51, 153, 255]);
    expect(parseColour('transparent', fallback)).toEqual([0, 0, 0, 0]);
    expect(parseColour('RGBA(10, 20, 30, 0.5)', fallback)).toEqual([10, 20, 30, 128]);
  });

  it('falls back when absent or unreadable', () => {
    expect(parseColour(undefined, fallback)).toBe(fallback);
    expect(parseColour('notacolour', fallback)).toBe(fallback);
  });
});
