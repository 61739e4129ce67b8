import { referenceVector } from './reference-vector';

describe('referenceVector', () => {
  it('is the unit-length mean of like minus the mean of unlike', () => {
    const close = (v: number[] | undefined, expected: number[]) => expected.forEach((x, i) => expect(v![i]).toBeCloseTo(x, 12));
    close(referenceVector([[1, 0], [0, 1]], []), [Math.SQRT1_2, Math.SQRT1_2]);
    close(referenceVector([[1, 0]], [[0, 1]]), [Math.SQRT1_2, -Math.SQRT1_2]);
    expect(referenceVector([[1, 0]], [[1, 0]])).toBeUndefined();
  });
});
