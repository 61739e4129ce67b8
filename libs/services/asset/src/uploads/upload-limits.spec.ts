import { acceptsContentType, partPlan } from './upload-limits';

const MiB = 1024 * 1024;

describe('partPlan', () => {
  it('defaults to 16 MiB parts; one part for small files', () => {
    expect(partPlan(1000)).toEqual({ partSize: 1000, partsCount: 1 });
    expect(partPlan(40 * MiB)).toEqual({ partSize: Math.ceil((40 * MiB) / 3), partsCount: 3 });
  });

  it('takes the parts asked for when S3 allows them', () => {
    expect(partPlan(12 * MiB, 2)).toEqual({ partSize: 6 * MiB, partsCount: 2 });
    expect(partPlan(5 * MiB, 1)).toEqual({ partSize: 5 * MiB, partsCount: 1 });
  });

  it.each([
    [12 * MiB, 3, /at least 5 MiB/],
    [6000 * MiB, 1001, /at most 1000/],
    [3, 4, /cannot exceed fileSize/],
    [6 * 1024 * MiB, 1, /larger than 5 GiB/],
  ])('refuses %i bytes in %i parts', (size, parts, message) => {
    expect(partPlan(size, parts)).toMatch(message);
  });
});

describe('acceptsContentType', () => {
  it.each([
    ['video', 'video/mp4', true],
    ['video', 'application/octet-stream', true],
    ['video', 'audio/mpeg', false],
    ['image', 'image/png', true],
    ['image', 'image/svg+xml', false],
    ['image', 'application/octet-stream', false],
    ['3d', 'model/gltf-binary', true],
    ['3d', 'application/x-fbx', true],
    ['asset', 'audio/wav', true],
    ['asset', 'text/html', false],
    ['asset', 'video/mp4; codecs=avc1', false],
  ] as const)('%s + %s → %s', (kind, type, ok) => {
    expect(acceptsContentType(kind, type)).toBe(ok);
  });
});
