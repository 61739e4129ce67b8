import { sniff } from './content-sniffer';

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));
const box = (brand: string) => bytes([0, 0, 0, 0x20], 'ftyp', brand, [0, 0, 0, 0], 'isommp41');

describe('sniff', () => {
  it.each([
    ['PNG', bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), 'image', 'image/png'],
    ['JPEG', bytes([0xff, 0xd8, 0xff, 0xe0]), 'image', 'image/jpeg'],
    ['WebP', bytes('RIFF', [0, 0, 0, 0], 'WEBPVP8 '), 'image', 'image/webp'],
    ['MP4', box('isom'), 'video', 'video/mp4'],
    ['MOV', box('qt  '), 'video', 'video/quicktime'],
    ['M4A', box('M4A '), 'audio', 'audio/mp4'],
    [
      'WebM',
      bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01], 'B\x82\x84webm'),
      'video',
      'video/webm',
    ],
    ['MKV', bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f], 'B\x82\x88matroska'), 'video', 'video/x-matroska'],
    ['AVI', bytes('RIFF', [0, 0, 0, 0], 'AVI LIST'), 'video', 'video/x-msvideo'],
    ['WAV', bytes('RIFF', [0, 0, 0, 0], 'WAVEfmt '), 'audio', 'audio/wav'],
    ['MP3 (ID3)', bytes('ID3', [4, 0, 0]), 'audio', 'audio/mpeg'],
    ['MP3 (frame)', bytes([0xff, 0xfb, 0x90, 0x64]), 'audio', 'audio/mpeg'],
    ['AAC (ADTS)', bytes([0xff, 0xf1, 0x50, 0x80]), 'audio', 'audio/aac'],
    ['FLAC', bytes('fLaC'), 'audio', 'audio/flac'],
    ['Ogg Vorbis', bytes('OggS', [0, 2], '\x01vorbis'), 'audio', 'audio/ogg'],
    ['Ogg Theora', bytes('OggS', [0, 2], '\x80theora'), 'video', 'video/ogg'],
    ['GLB', bytes('glTF', [2, 0, 0, 0]), '3d', 'model/gltf-binary'],
    ['glTF', bytes('{\n  "asset": { "version": "2.0" },\n  "scenes": []\n}'), '3d', 'model/gltf+json'],
    ['OBJ', bytes('# cube\nmtllib c.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n'), '3d', 'model/obj'],
    ['ASCII STL', bytes('solid cube\n facet normal 0 0 1\n'), '3d', 'model/stl'],
    ['FBX', bytes('Kaydara FBX Binary  \x00'), '3d', 'application/x-fbx'],
    ['PLY', bytes('ply\nformat ascii 1.0\n'), '3d', 'application/x-ply'],
    ['USDZ', bytes('PK', [3, 4], new Array(26).fill(0), 'x.usdc'), '3d', 'model/vnd.usdz+zip'],
  ])('%s', (_label, head, family, mimeType) => {
    // Zip local header: put the name length where it belongs.
    if (head[0] === 0x50 && head[1] === 0x4b) head.writeUInt16LE(6, 26);
    expect(sniff(head, 10_000)).toMatchObject({ family, mimeType });
  });

  it('binary STL only when the size matches its triangle count', () => {
    const head = Buffer.alloc(84, 1);
    head.writeUInt32LE(2, 80);
    expect(sniff(head, 84 + 100)).toMatchObject({ family: '3d', format: 'stl' });
    expect(sniff(head, 84 + 101)).toBeUndefined();
  });

  it.each([
    ['HTML', bytes('<!doctype html><script>alert(1)</script>')],
    ['SVG', bytes('<svg xmlns="http://www.w3.org/2000/svg"></svg>')],
    ['PDF', bytes('%PDF-1.7\n')],
    ['a plain zip', bytes('PK', [3, 4], new Array(26).fill(0), 'a.txt')],
    ['HEIC', box('heic')],
    ['random text', bytes('hello world\nthis is not a model\n')],
    ['empty', Buffer.alloc(0)],
  ])('refuses %s', (_label, head) => {
    if (head[0] === 0x50 && head[1] === 0x4b) head.writeUInt16LE(5, 26);
    expect(sniff(head, head.length)).toBeUndefined();
  });
});
