import { SIGNATURE_HEADER, verifyEvent } from '@genasset/webhooks';
import { WebhookReceiver, waitFor } from '@genasset/testing';
import { pidOfLocalPort } from './peer-process';

/** One delivery as the receiver got it, after verifying its signature with @genasset/webhooks. */
export interface Delivery {
  eventId: string;
  type: string;
  jobId?: string;
  data: any;
  receivedAt: number;
  /** The dispatcher process that sent it (Linux), undefined when unknown. */
  pid?: number;
}

/** What a set of expected events came to: nothing lost, no duplicates, how long it took. */
export interface Tally {
  expected: number;
  delivered: number;
  lost: number;
  duplicates: number;
  byPid: Map<number | undefined, number>;
}

/**
 * A webhook receiver that verifies every request with the endpoint secret (a request failing
 * verification fails the test), remembers which dispatcher replica sent it and answers 200,
 * after `delayMs` when set (to keep deliveries in flight during a drill).
 */
export class WebhookLedger {
  readonly deliveries: Delivery[] = [];
  readonly rejected: string[] = [];
  secret = '';
  delayMs = 0;

  private constructor(
    readonly receiver: WebhookReceiver,
    private readonly senderPids: () => number[],
  ) {}

  static async start(senderPids: () => number[]): Promise<WebhookLedger> {
    const receiver = await WebhookReceiver.start({ path: '/hooks' });
    const ledger = new WebhookLedger(receiver, senderPids);
    receiver.respondWith((request) => {
      const pid = request.remotePort === undefined ? undefined : pidOfLocalPort(request.remotePort, ledger.senderPids());
      try {
        const event = verifyEvent(request.rawBody, request.headers[SIGNATURE_HEADER], ledger.secret);
        const data = event.data as { jobId?: string };
        ledger.deliveries.push({ eventId: event.id, type: event.type, jobId: data?.jobId, data, receivedAt: request.receivedAt, pid });
      } catch (error) {
        ledger.rejected.push(`${(error as Error).message}: ${request.rawBody.toString().slice(0, 200)}`);
        return 400;
      }
      return ledger.delayMs ? { status: 200, delayMs: ledger.delayMs } : 200;
    });
    return ledger;
  }

  get url(): string {
    return this.receiver.url;
  }

  of(jobId: string, type: string): Delivery[] {
    return this.deliveries.filter((d) => d.jobId === jobId && d.type === type);
  }

  /** Waits until every job has every one of `types`, then counts. A timeout reports what is missing instead of throwing. */
  async settle(jobIds: readonly string[], types: readonly string[], timeoutMs: number): Promise<Tally> {
    const missing = () => jobIds.flatMap((id) => types.filter((t) => !this.of(id, t).length).map((t) => `${id}/${t}`));
    await waitFor(() => missing().length === 0, { timeoutMs, intervalMs: 200, what: 'every expected webhook' }).catch(() => undefined);
    const ids = new Set(jobIds);
    const mine = this.deliveries.filter((d) => d.jobId !== undefined && ids.has(d.jobId) && types.includes(d.type));
    const unique = new Set(mine.map((d) => d.eventId));
    const byPid = new Map<number | undefined, number>();
    for (const d of mine) byPid.set(d.pid, (byPid.get(d.pid) ?? 0) + 1);
    const expected = jobIds.length * types.length;
    return { expected, delivered: unique.size, lost: missing().length, duplicates: mine.length - unique.size, byPid };
  }

  close(): Promise<void> {
    return this.receiver.close();
  }
}
