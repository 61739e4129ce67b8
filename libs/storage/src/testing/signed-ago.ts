/** Everything jest's fake timers would fake but the clock: timers, ticks and I/O run as usual. */
const ALL_BUT_THE_CLOCK = [
  'hrtime',
  'nextTick',
  'performance',
  'queueMicrotask',
  'setImmediate',
  'clearImmediate',
  'setInterval',
  'clearInterval',
  'setTimeout',
  'clearTimeout',
] as const;

/**
 * Runs `sign` with the clock set `ms` in the past, so a link it signs is already as old as a link
 * signed that long ago: expiry tests wait on no real time. Only `Date` is faked, and only while
 * signing; whatever checks the link (our files route, an S3 server) reads the real clock.
 */
export async function signedAgo<T>(ms: number, sign: () => Promise<T>): Promise<T> {
  jest.useFakeTimers({ now: Date.now() - ms, doNotFake: [...ALL_BUT_THE_CLOCK] });
  try {
    return await sign();
  } finally {
    jest.useRealTimers();
  }
}
