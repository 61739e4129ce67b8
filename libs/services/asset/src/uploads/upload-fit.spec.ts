import { sniff } from '@genasset/storage';
import { fit } from './upload-importer';

const mp4 = Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from('ftypisom\0\0\0\0isomiso2', 'latin1')]);
const mp3 = Buffer.from('ID3\x04\0\0\0\0\0\0', 'latin1');

describe('fit: recognised content against the declared kind and type', () => {
  it('an MP4 is a video, or audio when declared so', () => {
    expect(fit(sniff(mp4, 100)!, 'video', 'video/mp4')).toMatchObject({
      family: 'video',
      mimeType: 'video/mp4',
    });
    expect(fit(sniff(mp4, 100)!, 'audio', 'audio/mp4')).toMatchObject({
      family: 'audio',
      mimeType: 'audio/mp4',
    });
    expect(fit(sniff(mp4, 100)!, 'asset', 'application/octet-stream')).toMatchObject({ family: 'video' });
  });

  it('refuses content of another family than declared, by kind or by type', () => {
    expect(() => fit(sniff(mp3, 100)!, 'video', 'video/mp4')).toThrow('not a video file');
    expect(() => fit(sniff(mp3, 100)!, 'asset', 'video/mp4')).toThrow('does not match contentType video/mp4');
  });
});
