import { rgbToLab } from '../image/colour-lab';

/**
 * Everyday colour names with a representative sRGB value; an analysed colour
 * takes the name whose value is nearest in CIE L*a*b* (ΔE*ab), so "dark
 * green" and "olive" are told apart the way people see them.
 */
const NAMED: readonly [string, number, number, number][] = [
  ['black', 15, 15, 15],
  ['charcoal', 55, 55, 58],
  ['grey', 128, 128, 128],
  ['silver', 192, 192, 192],
  ['white', 245, 245, 245],
  ['cream', 245, 235, 200],
  ['beige', 215, 195, 160],
  ['brown', 120, 75, 40],
  ['dark brown', 70, 45, 25],
  ['tan', 190, 150, 100],
  ['red', 200, 30, 30],
  ['dark red', 120, 15, 20],
  ['pink', 240, 150, 190],
  ['magenta', 210, 40, 160],
  ['orange', 240, 140, 30],
  ['gold', 215, 175, 40],
  ['yellow', 240, 225, 50],
  ['olive', 120, 120, 40],
  ['lime green', 150, 210, 60],
  ['green', 40, 160, 60],
  ['dark green', 20, 80, 35],
  ['teal', 0, 128, 128],
  ['turquoise', 60, 200, 200],
  ['sky blue', 135, 195, 235],
  ['blue', 40, 80, 200],
  ['navy', 20, 30, 90],
  ['purple', 130, 50, 160],
  ['lavender', 180, 160, 220],
];

const NAMED_LAB: Float32Array = (() => {
  const out = new Float32Array(NAMED.length * 3);
  NAMED.forEach(([, r, g, b], i) => rgbToLab(r, g, b, out, i * 3));
  return out;
})();

/** The everyday name of a colour given in L*a*b*. */
export function nameOfLab(l: number, a: number, b: number): string {
  let best = 0;
  let bestD = Infinity;
  for (let i = 0; i < NAMED.length; i++) {
    const d = (l - NAMED_LAB[i * 3]) ** 2 + (a - NAMED_LAB[i * 3 + 1]) ** 2 + (b - NAMED_LAB[i * 3 + 2]) ** 2;
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  }
  return NAMED[best][0];
}

/** Every colour name the built-in captions use (to recognise colour words in prompts). */
export const COLOUR_NAMES: readonly string[] = NAMED.map(([name]) => name);
