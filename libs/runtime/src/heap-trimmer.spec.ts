import { Logger } from '@nestjs/common';
import koffi from 'koffi';
import { HeapTrimmer, mallocTrim } from './heap-trimmer';

const glibc = Boolean((process.report.getReport() as { header: { glibcVersionRuntime?: string } }).header.glibcVersionRuntime);

describe('mallocTrim', () => {
  (glibc ? it : it.skip)('gives freed C heap that a live block pins back to the OS', () => {
    const libc = koffi.load('libc.so.6');
    const malloc = libc.func('void *malloc(size_t size)');
    const memset = libc.func('void *memset(void *s, int c, size_t n)');
    const free = libc.func('void free(void *ptr)');
    const rssMb = () => process.memoryUsage.rss() / 2 ** 20;
    // 64 MB in 32 KB blocks (under glibc's 128 KB mmap threshold: they come from the heap),
    // touched so they are resident, then all freed but the last, which stays above them and
    // keeps glibc's own trimming (top of the heap only) from returning any of it.
    const blocks = Array.from({ length: 2048 }, () => {
      const block = malloc(32 * 1024);
      memset(block, 1, 32 * 1024);
      return block;
    });
    for (const block of blocks.slice(0, -1)) free(block);
    const before = rssMb();
    expect(mallocTrim()!(0)).toBe(1);
    const after = rssMb();
    free(blocks.at(-1));
    expect(before - after).toBeGreaterThan(40);
  });

  it('is null where the C library is not glibc, and a function where it is', () => {
    expect(mallocTrim() === null).toBe(!glibc);
  });
});

describe('HeapTrimmer', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('trims on its interval from bootstrap until shutdown', () => {
    const trim = jest.fn<number, [number]>(() => 1);
    const trimmer = new HeapTrimmer(30_000, trim);
    jest.advanceTimersByTime(60_000);
    expect(trim).not.toHaveBeenCalled();
    trimmer.onApplicationBootstrap();
    jest.advanceTimersByTime(90_000);
    expect(trim).toHaveBeenCalledTimes(3);
    expect(trim).toHaveBeenCalledWith(0);
    trimmer.onApplicationShutdown();
    jest.advanceTimersByTime(90_000);
    expect(trim).toHaveBeenCalledTimes(3);
  });

  it('does nothing with an interval of 0 (HEAP_TRIM_INTERVAL=0)', () => {
    const trim = jest.fn<number, [number]>(() => 1);
    new HeapTrimmer(0, trim).onApplicationBootstrap();
    jest.advanceTimersByTime(600_000);
    expect(trim).not.toHaveBeenCalled();
  });

  it('stops after a failed call instead of failing every interval', () => {
    const trim = jest.fn<number, [number]>(() => {
      throw new Error('symbol not found');
    });
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    new HeapTrimmer(1_000, trim).onApplicationBootstrap();
    jest.advanceTimersByTime(10_000);
    expect(trim).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('malloc_trim failed, heap trimming stops: symbol not found'));
    warn.mockRestore();
  });
});
