import { randomBytes } from 'node:crypto';
import { SecretBox } from './secret-box';
import { newEndpointSecret } from './endpoint-secret';

describe('SecretBox', () => {
  const box = new SecretBox(randomBytes(32));

  it('opens what it sealed', () => {
    const secret = newEndpointSecret();
    expect(box.open(box.seal(secret))).toBe(secret);
  });

  it('never stores the plaintext and never repeats a ciphertext', () => {
    const secret = newEndpointSecret();
    const a = box.seal(secret);
    const b = box.seal(secret);
    expect(a).not.toBe(b);
    expect(a).not.toContain(secret.slice(6));
    expect(a).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
  });

  it('refuses a tampered ciphertext or another key', () => {
    const sealed = box.seal('whsec_abc');
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    raw[14] ^= 1;
    expect(() => box.open(`v1.${raw.toString('base64url')}`)).toThrow();
    expect(() => new SecretBox(randomBytes(32)).open(sealed)).toThrow();
    expect(() => box.open('v2.abc')).toThrow(/format/);
    expect(() => box.open('v1.abc')).toThrow(/truncated/);
  });

  it('needs a 32-byte key', () => {
    expect(() => new SecretBox(randomBytes(16))).toThrow(/32-byte/);
  });
});

describe('newEndpointSecret', () => {
  it('is whsec_ and 32 random bytes', () => {
    const secret = newEndpointSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(secret.slice(6), 'base64url')).toHaveLength(32);
    expect(newEndpointSecret()).not.toBe(secret);
  });
});
