import { ApiError } from '@genasset/http';
import { decodeBase64Payload } from './base64-payload';

const status = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return (error as ApiError).getStatus();
  }
  return 200;
};

describe('decodeBase64Payload', () => {
  const bytes = Buffer.from([0, 1, 2, 250, 251, 252, 253]);

  it('decodes data URLs (whatever type they declare), bare base64 and base64url', () => {
    expect(decodeBase64Payload(`data:image/png;base64,${bytes.toString('base64')}`, 'image', 100)).toEqual(bytes);
    expect(decodeBase64Payload(`data:application/x-whatever;name=a.png;base64,${bytes.toString('base64')}`, 'image', 100)).toEqual(bytes);
    expect(decodeBase64Payload(bytes.toString('base64'), 'image', 100)).toEqual(bytes);
    expect(decodeBase64Payload(bytes.toString('base64url'), 'image', 100)).toEqual(bytes);
    expect(decodeBase64Payload(`${bytes.toString('base64').slice(0, 4)}\n${bytes.toString('base64').slice(4)}`, 'image', 100)).toEqual(bytes);
  });

  it('refuses what is not base64 (400) and what is too large (413) before decoding', () => {
    expect(status(() => decodeBase64Payload('not base64!', 'image', 100))).toBe(400);
    expect(status(() => decodeBase64Payload('data:image/png,abc', 'image', 100))).toBe(400);
    expect(status(() => decodeBase64Payload('', 'image', 100))).toBe(400);
    expect(status(() => decodeBase64Payload('A', 'image', 100))).toBe(400);
    expect(status(() => decodeBase64Payload('A'.repeat(140), 'image', 100))).toBe(413);
    expect(status(() => decodeBase64Payload('A'.repeat(136), 'image', 102))).toBe(200);
  });

  it('names the limit', () => {
    try {
      decodeBase64Payload('A'.repeat(40 * 1024 * 1024), 'image', 25 * 1024 * 1024);
    } catch (error) {
      expect((error as ApiError).message).toBe('image is 30 MiB; the limit is 25 MiB');
    }
    expect.assertions(1);
  });
});
