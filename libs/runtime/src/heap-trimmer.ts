import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { errorMessage } from '@genasset/contracts';

/** glibc's `malloc_trim(pad)`: 1 when memory went back to the OS, 0 when there was none to give. */
export type MallocTrim = (pad: number) => number;

let binding: MallocTrim | null | undefined;

/**
 * glibc's malloc_trim, or null where the C library is not glibc (macOS, musl) or it cannot be
 * reached. Node has no binding for it; koffi (a maintained FFI with prebuilt binaries, so no
 * compiler at install time) calls it. Loaded once per process, on first use.
 */
export function mallocTrim(): MallocTrim | null {
  if (binding !== undefined) return binding;
  binding = null;
  if (process.platform !== 'linux') return binding;
  try {
    // Loaded only here: a process with trimming off never maps the FFI library.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const koffi = require('koffi') as typeof import('koffi');
    binding = koffi.load('libc.so.6').func('int malloc_trim(size_t pad)') as MallocTrim;
  } catch {
    // musl (no libc.so.6, no malloc_trim) or no prebuilt FFI binary for this machine.
  }
  return binding;
}

/**
 * Gives the C heap's free pages back to the OS every `intervalMs`.
 *
 * Why: glibc returns freed memory to the OS only from the top of each of its arenas. V8's
 * background compiler threads and libuv's pool allocate a great deal while a process starts and
 * free nearly all of it, but what little they keep pins the rest: measured on the embedded platform
 * 60 s after start, glibc held 166 MB for 39 MB in use (malloc_stats), and one malloc_trim(0) took
 * its RSS from 351 to 256 MB in 5.6 ms. Later calls find a few MB and take about 1 ms, so an
 * interval costs nothing measurable while it keeps a burst's garbage from staying resident.
 */
@Injectable()
export class HeapTrimmer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(HeapTrimmer.name);
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly intervalMs: number,
    private readonly trim: MallocTrim | null = intervalMs > 0 ? mallocTrim() : null,
  ) {}

  onApplicationBootstrap(): void {
    if (this.intervalMs <= 0 || !this.trim) return;
    const trim = this.trim;
    this.timer = setInterval(() => {
      try {
        trim(0);
      } catch (error) {
        // Never expected (the call has no failure mode but a missing symbol, ruled out at load):
        // said once, then the process stops trying rather than logging every interval.
        this.logger.warn(`malloc_trim failed, heap trimming stops: ${errorMessage(error)}`);
        clearInterval(this.timer);
      }
    }, this.intervalMs);
    // Never what keeps the process alive.
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }
}
