import { ApiError } from '@genasset/http';
import { assertMayWrite, lockExpiry } from './canvas-lock';

const now = new Date('2026-01-01T12:00:00Z');
const later = new Date('2026-01-01T12:05:00Z');
const earlier = new Date('2026-01-01T11:55:00Z');
const code = (fn: () => void) => {
  try {
    fn();
    return 'ok';
  } catch (error) {
    return (error as ApiError).apiError;
  }
};

describe('canvas lock rules', () => {
  it('anyone writes an unlocked canvas (or one whose lock expired); only the holder a locked one', () => {
    expect(code(() => assertMayWrite({ id: 'a', lockId: null, lockExpiresAt: null }, undefined, now))).toBe('ok');
    expect(code(() => assertMayWrite({ id: 'a', lockId: 'l1', lockExpiresAt: earlier }, undefined, now))).toBe('ok');
    expect(code(() => assertMayWrite({ id: 'a', lockId: 'l1', lockExpiresAt: later }, undefined, now))).toBe('canvas_locked');
    expect(code(() => assertMayWrite({ id: 'a', lockId: 'l1', lockExpiresAt: later }, 'l2', now))).toBe('canvas_locked');
    expect(code(() => assertMayWrite({ id: 'a', lockId: 'l1', lockExpiresAt: later }, 'l1', now))).toBe('ok');
  });

  it('a lockId no longer held is refused, so a client that lost its lock cannot overwrite', () => {
    expect(code(() => assertMayWrite({ id: 'a', lockId: 'l1', lockExpiresAt: earlier }, 'l1', now))).toBe('lock_expired');
    expect(code(() => assertMayWrite({ id: 'a', lockId: null, lockExpiresAt: null }, 'l1', now))).toBe('lock_expired');
  });

  it('expiry: default 5 minutes, in the future, at most an hour ahead', () => {
    expect(lockExpiry(undefined, now)).toEqual(later);
    expect(lockExpiry('2026-01-01T13:00:00Z', now)).toEqual(new Date('2026-01-01T13:00:00Z'));
    expect(code(() => lockExpiry('2026-01-01T13:00:01Z', now))).toBe('validation_error');
    expect(code(() => lockExpiry('2026-01-01T12:00:00Z', now))).toBe('validation_error');
  });
});
