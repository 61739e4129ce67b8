import { createDeduper } from './index';

describe('createDeduper', () => {
  const clock = () => {
    let t = 1_700_000_000_000;
    return { now: () => t, advance: (ms: number) => void (t += ms) };
  };

  it('tells whether an id was already seen, marking it on first sight', () => {
    const dedupe = createDeduper();
    expect(dedupe.seen('whevent_1')).toBe(false);
    expect(dedupe.seen('whevent_1')).toBe(true);
    expect(dedupe.seen('whevent_2')).toBe(false);
  });

  it('forgets an id after its TTL (injected clock)', () => {
    const c = clock();
    const dedupe = createDeduper({ ttlMs: 60_000, clock: c.now });
    dedupe.seen('whevent_1');
    c.advance(59_999);
    expect(dedupe.seen('whevent_1')).toBe(true);
    c.advance(1);
    expect(dedupe.seen('whevent_1')).toBe(false);
    expect(dedupe.seen('whevent_1')).toBe(true);
  });

  it('does not extend the TTL on duplicates', () => {
    const c = clock();
    const dedupe = createDeduper({ ttlMs: 1_000, clock: c.now });
    dedupe.seen('a');
    c.advance(900);
    expect(dedupe.seen('a')).toBe(true);
    c.advance(100);
    expect(dedupe.seen('a')).toBe(false);
  });

  it('stays bounded, evicting the oldest ids first', () => {
    const dedupe = createDeduper({ maxEntries: 3 });
    for (const id of ['a', 'b', 'c', 'd']) dedupe.seen(id);
    expect(dedupe.size).toBe(3);
    expect(dedupe.seen('b')).toBe(true);
    expect(dedupe.seen('a')).toBe(false); // evicted, so seen as new (and now evicts 'c')
    expect(dedupe.size).toBe(3);
  });

  it('sweeps expired ids so memory follows the TTL, not the history', () => {
    const c = clock();
    const dedupe = createDeduper({ ttlMs: 1_000, clock: c.now });
    for (let i = 0; i < 100; i++) dedupe.seen(`old_${i}`);
    c.advance(1_000);
    dedupe.seen('new');
    expect(dedupe.size).toBe(1);
  });

  it('forget() lets a failed delivery be processed again on retry', () => {
    const dedupe = createDeduper();
    expect(dedupe.seen('whevent_1')).toBe(false);
    dedupe.forget('whevent_1');
    expect(dedupe.seen('whevent_1')).toBe(false);
  });

  it('implements the persistent-store interface: claim / release', async () => {
    const c = clock();
    const store = createDeduper({ clock: c.now });
    await expect(store.claim('whevent_1', 5_000)).resolves.toBe(true);
    await expect(store.claim('whevent_1', 5_000)).resolves.toBe(false);
    c.advance(5_000);
    await expect(store.claim('whevent_1', 5_000)).resolves.toBe(true);
    await store.release!('whevent_1');
    await expect(store.claim('whevent_1', 5_000)).resolves.toBe(true);
  });

  it('rejects nonsensical bounds', () => {
    expect(() => createDeduper({ ttlMs: 0 })).toThrow(RangeError);
    expect(() => createDeduper({ maxEntries: 0 })).toThrow(RangeError);
  });
});
