import { hashSecret, newApiKeyId, newApiSecret, secretMatches } from './api-key-secret';

describe('API key secrets', () => {
  it('are random, prefixed and verified against their hash only', () => {
    const secret = newApiSecret();
    expect(secret).toMatch(/^sk_[A-Za-z0-9_-]{43}$/);
    expect(newApiSecret()).not.toBe(secret);
    expect(newApiKeyId()).toMatch(/^key_[0-9A-Z]{26}$/);
    const hash = hashSecret(secret);
    expect(hash).not.toContain(secret);
    expect(secretMatches(secret, hash)).toBe(true);
    expect(secretMatches(secret + 'x', hash)).toBe(false);
    expect(secretMatches(secret, 'abcd')).toBe(false);
  });
});
