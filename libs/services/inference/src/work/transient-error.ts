/**
 * A failure worth retrying (a peer or storage unreachable): the job runs again
 * later; if it keeps failing, `reason` (words for the client) becomes the
 * failure reason. The underlying error is logged, never shown.
 */
export class TransientError extends Error {
  constructor(
    readonly reason: string,
    readonly underlying?: unknown,
  ) {
    super(underlying instanceof Error ? `${reason}: ${underlying.message}` : reason);
    this.name = 'TransientError';
  }
}
