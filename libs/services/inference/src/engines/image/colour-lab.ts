/** sRGB ↔ CIE L*a*b* (D65), for colour statistics that match perception (restyle, segmentation). */

const TO_LINEAR = new Float32Array(256);
for (let i = 0; i < 256; i++) {
  const c = i / 255;
  TO_LINEAR[i] = c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

const XN = 0.95047;
const YN = 1.0;
const ZN = 1.08883;

const f = (t: number) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
const fInv = (t: number) => (t > 0.206893 ? t * t * t : (t - 16 / 116) / 7.787);

/** Converts RGB bytes to Lab; writes L, a, b at `out[o..o+2]`. */
export function rgbToLab(r: number, g: number, b: number, out: Float32Array, o: number): void {
  const lr = TO_LINEAR[r];
  const lg = TO_LINEAR[g];
  const lb = TO_LINEAR[b];
  const x = (0.4124 * lr + 0.3576 * lg + 0.1805 * lb) / XN;
  const y = (0.2126 * lr + 0.7152 * lg + 0.0722 * lb) / YN;
  const z = (0.0193 * lr + 0.1192 * lg + 0.9505 * lb) / ZN;
  const fx = f(x);
  const fy = f(y);
  const fz = f(z);
  out[o] = 116 * fy - 16;
  out[o + 1] = 500 * (fx - fy);
  out[o + 2] = 200 * (fy - fz);
}

/** Converts Lab to RGB bytes (clamped), written at `out[o..o+2]`. */
export function labToRgb(l: number, a: number, bb: number, out: Uint8Array, o: number): void {
  const fy = (l + 16) / 116;
  const fx = fy + a / 500;
  const fz = fy - bb / 200;
  const x = fInv(fx) * XN;
  const y = fInv(fy) * YN;
  const z = fInv(fz) * ZN;
  const lr = 3.2406 * x - 1.5372 * y - 0.4986 * z;
  const lg = -0.9689 * x + 1.8758 * y + 0.0415 * z;
  const lb = 0.0557 * x - 0.204 * y + 1.057 * z;
  out[o] = toByte(lr);
  out[o + 1] = toByte(lg);
  out[o + 2] = toByte(lb);
}

function toByte(linear: number): number {
  const c = linear <= 0.0031308 ? 12.92 * linear : 1.055 * Math.pow(Math.max(0, linear), 1 / 2.4) - 0.055;
  return c <= 0 ? 0 : c >= 1 ? 255 : Math.round(c * 255);
}
