import { UrlSigner } from '@genasset/storage';

/** How long after submission a callback URL is honoured, beyond the backend's job timeout. */
const GRACE_S = 24 * 3600;

/**
 * Backend callbacks (webhooks a backend sends when a prediction starts or ends), within one process:
 * the signed URL a submission carries, and the hand-over to the collector waiting on it.
 *
 * The URL is signed with the storage signer's HMAC (one mechanism for signed URLs): the signature
 * covers backend, submission, job and expiry, so a callback can speak only of the job it was made
 * for. A callback carries no result of its own weight: it wakes the collector, which asks the
 * backend (GET /predictions/{id}, the truth) — so a replayed or duplicated callback changes
 * nothing, and one arriving at a process where no collector waits is simply early news the poll
 * picks up.
 */
export class BackendCallbacks {
  private readonly signer?: UrlSigner;
  private readonly waiting = new Map<string, Set<() => void>>();

  constructor(
    secret?: string,
    /**
     * The report a callback stored for a job's task (work_items.backend_report): Cog's final word,
     * which Cog itself forgets. Absent in tools and tests without a database.
     */
    readonly reports?: (jobId: string, submission: string) => Promise<Record<string, unknown> | undefined>,
  ) {
    if (secret) this.signer = new UrlSigner(secret);
  }

  /**
   * The callback URL a submission carries: `<base>/v1/backend-callbacks/{backend}/{submission}`, its
   * path naming the submission (what finds it again after a crash), its query signed for the job.
   */
  url(base: string, backend: string, submission: string, jobId: string, jobTimeoutMs: number): string {
    const url = new URL(`v1/backend-callbacks/${backend}/${submission}`, base.endsWith('/') ? base : `${base}/`);
    url.search = this.query(backend, submission, jobId, jobTimeoutMs);
    return url.toString();
  }

  get enabled(): boolean {
    return !!this.signer;
  }

  /** `job=&expires=&signature=` for a callback URL; empty when callbacks are off (no INFERENCE_CALLBACK_SECRET). */
  query(backend: string, submission: string, jobId: string, jobTimeoutMs: number): string {
    if (!this.signer) return '';
    const expires = Math.floor(Date.now() / 1000 + jobTimeoutMs / 1000 + GRACE_S);
    const signature = this.signer.sign({ key: key(backend, submission, jobId), expires });
    return `job=${encodeURIComponent(jobId)}&expires=${expires}&signature=${signature}`;
  }

  verify(backend: string, submission: string, jobId: string, expires: string, signature: string): 'valid' | 'invalid' | 'expired' {
    if (!this.signer || !/^\d{1,12}$/.test(expires)) return 'invalid';
    return this.signer.verify({ key: key(backend, submission, jobId), expires: Number(expires) }, signature);
  }

  /** Wakes the collector of a submission in this process; false when none waits here. */
  deliver(submission: string): boolean {
    const wakers = this.waiting.get(submission);
    if (!wakers?.size) return false;
    for (const wake of wakers) wake();
    return true;
  }

  /** Resolves after `ms`, or sooner when a callback for the submission arrives (or the signal aborts). */
  wait(submission: string, ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const wakers = this.waiting.get(submission) ?? new Set<() => void>();
      this.waiting.set(submission, wakers);
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        wakers.delete(done);
        if (!wakers.size) this.waiting.delete(submission);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
      wakers.add(done);
    });
  }
}

const key = (backend: string, submission: string, jobId: string) => `backend-callbacks/${backend}/${submission}/${jobId}`;
