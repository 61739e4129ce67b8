import pino, { type DestinationStream } from 'pino';

let stdout: DestinationStream | undefined;

/**
 * Where the JSON log lines go when an app names no destination: one
 * asynchronous stream on stdout (pino's own default, flushed at exit), shared
 * by every logger of the process. Sharing it is what lets `printBesideLogs`
 * put text after the lines logged before it: two streams on one descriptor
 * write in whatever order their buffers drain.
 */
export function stdoutLogDestination(): DestinationStream {
  stdout ??= pino.destination({ dest: 1, sync: false });
  return stdout;
}

/** Writes text for a person to stdout, in order with the log lines (the start-up banner). */
export function printBesideLogs(text: string): void {
  stdoutLogDestination().write(text);
}
