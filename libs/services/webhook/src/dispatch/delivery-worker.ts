import { errorMessage, sleep } from '@genasset/contracts';
import { Logger } from '@nestjs/common';
import {
  contextFromHeaders,
  inSpan,
  markSpanFailed,
  SpanKind,
  tracingEnabled,
} from '@genasset/observability';
import { ClaimLoop, type DatabaseConnection } from '@genasset/persistence';
import { DELIVERIES_CHANNEL, RECALLED_ENDPOINTS_CHANNEL } from '../deliveries/delivery-wakeup';
import {
  observeAttempt,
  observeRecorded,
  webhookDispatchGivenBack,
  webhookDispatchTaken,
} from '../metrics/webhook.metrics';
import { attemptResult, serviceFailure, type AttemptResult } from './attempt-outcome';
import { AttemptRecorder } from './attempt-recorder';
import { deliveryBody } from './delivery-body';
import type { DeliveryHandoff, DeliveryHandoffPort } from './delivery-handoff';
import { DeliveryRepository, type ClaimedDelivery, type EndpointTarget } from './delivery.repository';
import { DispatchBoard } from './dispatch-board';
import { startWindowMs } from './lease-budget';
import type { DispatchSettings } from './dispatch.settings';
import { EndpointTargets, type SecretOpener } from './endpoint-targets';
import { WebhookSender, type SignedPost } from './webhook-sender';

/** How long a small wave of outcomes waits for more before it is recorded (AttemptRecorder). */
const RECORD_LINGER_MS = 20;

/** What a read of an endpoint found, and when it began (this process's clock). */
interface EndpointRead extends EndpointTarget {
  at: number;
}

export interface WorkerStats {
  claimed: number;
  /** Deliveries the intake of this process handed over as it wrote them (no claim). */
  handedOver: number;
  /** Deliveries given back unattempted: they waited too long to finish within their lease. */
  givenBack: number;
  /** Deliveries that waited for a slot and were checked against their endpoint before starting, and the checks made. */
  checked: number;
  checks: number;
  attempted: number;
  inFlight: number;
  queued: number;
  unrecorded: number;
}

/**
 * The delivery loop of one process. Claims due deliveries in batches while
 * the board has room, starts each as soon as its endpoint has a free slot,
 * and hands outcomes to the recorder. Wakes on NOTIFY from the intake, when
 * finishing attempts make room that due work was waiting for, at the retry
 * times it scheduled itself, and on a short poll (retries scheduled by other
 * replicas, missed notifications).
 */
export class DeliveryWorker implements DeliveryHandoffPort {
  private readonly logger = new Logger('DeliveryWorker');
  private readonly repository: DeliveryRepository;
  private readonly sender: WebhookSender;
  private readonly targets: EndpointTargets;
  private readonly board: DispatchBoard;
  private readonly recorder: AttemptRecorder;
  private readonly inFlight = new Map<string, Promise<void>>();
  /** Room worth a claim round: smaller gaps wait for more attempts to finish (fewer, fuller claims). */
  private readonly claimThreshold: number;
  /** A delivery leased longer ago than this is given back instead of started (startWindowMs). */
  private readonly startWindowMs: number;
  private running = false;
  /** Claim rounds (libs/persistence ClaimLoop): NOTIFY of the intake, wake-ups, the poll, back-off. */
  private readonly loop: ClaimLoop;
  /** The last claim was cut short by a cap: finishing attempts should wake the loop. */
  private limited = false;
  private unlistenRecalled?: () => Promise<void>;
  /**
   * Endpoints paused, deleted or re-pointed lately → when this process heard
   * of it. A delivery leased before that (waiting in the board, or a claim or
   * hand-off still on its way) is given back instead of started.
   */
  private readonly recalledAt = new Map<string, number>();
  /**
   * Deliveries that waited in the board for a slot, to be checked against their endpoint's current
   * state before they start (checkWaited), and the check in progress.
   */
  private readonly unchecked: ClaimedDelivery[] = [];
  private checking?: Promise<void>;
  /**
   * Endpoint → the last read of it this process made (a claim, the intake of a hand-off, a check):
   * when it began, and the URL and sealed secret it found. A delivery starts unchecked only on a
   * read younger than `recheckAfterMs` that found what the delivery carries (pump).
   */
  private readonly endpointReads = new Map<string, EndpointRead>();
  private readonly counts = { claimed: 0, handedOver: 0, attempted: 0, givenBack: 0, checked: 0, checks: 0 };

  constructor(
    private readonly db: DatabaseConnection,
    secrets: SecretOpener,
    private readonly settings: DispatchSettings,
  ) {
    this.repository = new DeliveryRepository(db);
    this.sender = new WebhookSender({
      timeoutMs: settings.timeoutMs,
      responseBodyLimit: settings.responseBodyLimit,
      allowPrivate: settings.allowPrivate,
    });
    this.targets = new EndpointTargets(secrets, { allowHttp: settings.allowHttp });
    this.board = new DispatchBoard(settings.maxInFlight, settings.endpointConcurrency);
    this.claimThreshold = Math.max(
      1,
      Math.floor(Math.min(settings.claimBatch, settings.maxInFlight * this.board.prefetch) / 4),
    );
    this.startWindowMs = startWindowMs(settings.leaseMs, settings.timeoutMs);
    this.recorder = new AttemptRecorder(
      async (batch) => {
        const retries = await this.repository.record(batch, settings);
        observeRecorded(batch, retries.length);
        return retries;
      },
      {
        // A retry this process scheduled: wake when it falls due, not at the next poll.
        onRetryScheduled: (at) => this.loop.wakeAt(at.getTime()),
        onWritten: () => {
          if (this.limited) this.wake();
        },
      },
      // Quick writes make small waves; a few ms of patience makes fewer, fuller statements.
      { fillTo: settings.maxInFlight, lingerMs: RECORD_LINGER_MS },
    );
    this.loop = new ClaimLoop(
      {
        name: 'DeliveryWorker',
        pollIntervalMs: settings.pollIntervalMs,
        db,
        channel: DELIVERIES_CHANNEL,
        backoff: { baseMs: 100, maxMs: 5_000 },
      },
      () => this.round(),
    );
  }

  stats(): WorkerStats {
    return {
      ...this.counts,
      inFlight: this.board.inFlight,
      queued: this.board.queued,
      unrecorded: this.recorder.pending,
    };
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      this.unlistenRecalled = await this.db.listen(RECALLED_ENDPOINTS_CHANNEL, (endpointId) =>
        this.recall(endpointId),
      );
    } catch (error) {
      this.logger.warn(
        `LISTEN ${RECALLED_ENDPOINTS_CHANNEL} failed: deliveries already held for a paused, deleted or re-pointed endpoint may still be sent as held: ${errorMessage(error)}`,
      );
    }
    await this.loop.start();
  }

  /**
   * Stops claiming and gives back claims not started yet; lets attempts in
   * flight finish (up to the drain timeout; later ones are abandoned and their
   * claims given back too, so another replica takes them at once), records
   * every outcome, closes the connection pool.
   */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    await this.loop.stop();
    await this.checking;
    await this.unlistenRecalled?.().catch(() => undefined);

    const release = async (ids: string[]) => {
      await this.repository
        .release(ids)
        .catch((error: unknown) =>
          this.logger.warn(`releasing ${ids.length} claim(s) failed: ${errorMessage(error)}`),
        );
    };
    await release(this.board.takeWaiting().map((d) => d.id));
    const drained = await Promise.race([
      Promise.all(this.inFlight.values()).then(() => true),
      sleep(this.settings.drainTimeoutMs, { unref: true }).then(() => false),
    ]);
    if (!drained) {
      const abandoned = [...this.inFlight.keys()];
      this.logger.warn(
        `abandoning ${abandoned.length} attempt(s) still in flight after ${this.settings.drainTimeoutMs} ms`,
      );
      this.sender.abandonAll();
      await Promise.all(this.inFlight.values());
      await release(abandoned);
    }
    await this.recorder.drain(5_000);
    await this.sender.close();
    await this.repository.close();
  }

  /** Room for deliveries this process's intake is writing (DeliveryHandoff); none unless running. */
  offer(endpointIds: readonly string[]): DeliveryHandoff | undefined {
    if (!this.running) return undefined;
    const taken = this.board.reserve(endpointIds);
    if (!taken.includes(true)) return undefined;
    let completed = false;
    return {
      taken,
      leaseMs: this.settings.leaseMs,
      complete: (arrived) => {
        if (completed) return;
        completed = true;
        this.receive(
          endpointIds.filter((_, i) => taken[i]),
          arrived,
        );
      },
    };
  }

  /** Takes handed-over deliveries in (their room was reserved) and releases the room of the rest. */
  private receive(reservedFor: string[], arrived: readonly ClaimedDelivery[]): void {
    const unused = new Map<string, number>();
    for (const endpointId of reservedFor) unused.set(endpointId, (unused.get(endpointId) ?? 0) + 1);
    for (const { endpointId } of arrived) unused.set(endpointId, (unused.get(endpointId) ?? 0) - 1);
    this.board.release(
      [...unused].flatMap(([endpointId, n]) => Array<string>(Math.max(0, n)).fill(endpointId)),
    );
    if (arrived.length === 0) return;
    if (!this.running) {
      // Stopping: give the leases back so another replica takes them at once.
      this.board.release(arrived.map((d) => d.endpointId));
      void this.repository
        .release(arrived.map((d) => d.id))
        .catch((error: unknown) =>
          this.logger.warn(`releasing ${arrived.length} handed-over deliveries failed: ${errorMessage(error)}`),
        );
      return;
    }
    this.counts.handedOver += arrived.length;
    webhookDispatchTaken.inc({ source: 'handoff' }, arrived.length);
    this.board.add(arrived, true);
    this.noteReads(arrived);
    this.pump();
  }

  /** Asks for a claim round now (NOTIFY, room made by finished attempts, a retry falling due). */
  wake(): void {
    this.loop.wake();
  }

  /** One claim round (ClaimLoop): true when it took a full batch and there is room for another. */
  private async round(): Promise<boolean> {
    // Outcomes piling up unrecorded (database trouble): take no more work until they are written.
    const backlogged = this.recorder.pending > Math.max(1_000, 4 * this.settings.maxInFlight);
    // A NOTIFY may come when little room is free: while attempts are running, wait until they free
    // a worthwhile batch's room (they wake the loop) instead of claiming a few rows at a time.
    const idle = this.board.inFlight + this.board.queued === 0;
    const worthwhile = idle || this.board.room >= this.claimThreshold;
    const want = backlogged || !worthwhile ? 0 : Math.min(this.settings.claimBatch, this.board.room);
    let claimed = 0;
    let more = false;
    if (want > 0) {
      const { deliveries, moreDue } = await this.repository.claim({
        limit: want,
        endpointConcurrency: this.settings.endpointConcurrency * this.board.prefetch,
        busy: this.board.busy(),
        leaseMs: this.settings.leaseMs,
      });
      claimed = deliveries.length;
      more = moreDue;
      this.counts.claimed += claimed;
      if (claimed > 0) webhookDispatchTaken.inc({ source: 'claim' }, claimed);
      this.board.add(deliveries);
      this.noteReads(deliveries);
      this.pump();
    }
    this.limited = want === 0 || claimed === want || more;
    // A full batch means more is due: claim again as soon as there is room for a worthwhile batch.
    return claimed > 0 && claimed === want && this.board.room >= this.claimThreshold;
  }

  /**
   * Starts every claimed delivery whose endpoint and the process have a free
   * slot, except those that waited so long (a slow endpoint ahead of them)
   * that their attempt might outlive their lease: those go back to the shared
   * queue at once, to be claimed afresh. A delivery whose endpoint this process
   * has not read within `recheckAfterMs`, or read with another URL or secret,
   * is checked first (checkWaited); within that time the recall notice of a
   * pause, delete or re-point is what holds it back.
   */
  private pump(): void {
    const now = Date.now();
    const lapsed: ClaimedDelivery[] = [];
    for (let delivery = this.board.next(); delivery; delivery = this.board.next()) {
      const recalled = this.recalledAt.size > 0 ? this.recalledAt.get(delivery.endpointId) : undefined;
      if (
        (recalled !== undefined && delivery.leasedAt <= recalled) ||
        (this.startWindowMs > 0 && now - delivery.leasedAt > this.startWindowMs)
      ) {
        this.board.done(delivery);
        lapsed.push(delivery);
        continue;
      }
      const read = this.endpointReads.get(delivery.endpointId);
      if (
        read !== undefined &&
        now - read.at < this.settings.recheckAfterMs &&
        read.url === delivery.url &&
        read.secretCiphertext === delivery.secretCiphertext
      )
        this.launch(delivery);
      else this.unchecked.push(delivery);
    }
    if (lapsed.length > 0) void this.giveBack(lapsed);
    if (this.unchecked.length > 0) this.checkWaited();
  }

  /** A claim or the intake has just read these deliveries' endpoints (at their lease). */
  private noteReads(deliveries: readonly ClaimedDelivery[]): void {
    for (const d of deliveries) this.noteRead(d.endpointId, { at: d.leasedAt, url: d.url, secretCiphertext: d.secretCiphertext });
  }

  private noteRead(endpointId: string, read: EndpointRead): void {
    const known = this.endpointReads.get(endpointId);
    if (known && known.at > read.at) return;
    // One entry per endpoint with work here lately; a process serving very many endpoints starts over.
    if (!known && this.endpointReads.size >= 10_000) this.endpointReads.clear();
    this.endpointReads.set(endpointId, read);
  }

  /**
   * Starts the deliveries pump could not vouch for once one read of their
   * endpoints, begun now, finds each endpoint enabled with the URL and secret
   * the delivery was claimed with; the others go back to the queue unsent. The
   * recall NOTIFY of a pause, delete or re-point reaches this process
   * asynchronously (late under load), so without this read a slot freed in the
   * same instant as a pause could start a held delivery after the pause
   * answered. One read at a time, for every delivery that became ready
   * meanwhile, and at most one per endpoint per `recheckAfterMs` while the
   * endpoint keeps its URL and secret: a read before every start would cost a
   * round trip per slot turn (bench/webhooks' dispatch alone, loaded machine:
   * 161 µs of PostgreSQL CPU per delivery when every waiting one was checked,
   * 97-130 without).
   */
  private checkWaited(): void {
    if (this.checking || this.unchecked.length === 0) return;
    this.checking = (async () => {
      while (this.unchecked.length > 0) await this.checkBatch(this.unchecked.splice(0));
    })().finally(() => (this.checking = undefined));
  }

  private async checkBatch(batch: ClaimedDelivery[]): Promise<void> {
    let current: ReadonlyMap<string, EndpointTarget> | undefined;
    if (this.running) {
      this.counts.checks++;
      this.counts.checked += batch.length;
      const endpointIds = [...new Set(batch.map((d) => d.endpointId))];
      const at = Date.now();
      try {
        current = await this.repository.currentTargets(endpointIds);
        for (const endpointId of endpointIds) {
          const target = current.get(endpointId);
          if (target) this.noteRead(endpointId, { at, ...target });
          else this.endpointReads.delete(endpointId);
        }
      } catch (error) {
        // Unchecked, they are given back: claimed again (and so read again) once the database answers.
        this.logger.warn(`checking ${batch.length} waiting deliveries failed: ${errorMessage(error)}`);
      }
    }
    const stale: ClaimedDelivery[] = [];
    for (const delivery of batch) {
      const target = this.running ? current?.get(delivery.endpointId) : undefined;
      if (target && target.url === delivery.url && target.secretCiphertext === delivery.secretCiphertext)
        this.launch(delivery);
      else {
        this.board.done(delivery);
        stale.push(delivery);
      }
    }
    if (stale.length === 0) return;
    await this.giveBack(stale);
    if (this.running) this.pump();
  }

  /**
   * An endpoint was paused, deleted or given a new URL (NOTIFY from the
   * committed PUT or DELETE): the deliveries of it this worker holds but has
   * not started go back to the queue unsent. Pending ones of a paused endpoint
   * wait there for the resume (claims skip paused endpoints); a deleted
   * endpoint's rows are gone; a re-pointed endpoint's are claimed again with
   * the new URL. Attempts already in flight complete.
   */
  private recall(endpointId: string): void {
    if (!endpointId) return;
    const now = Date.now();
    // Claims and hand-offs leased before now are at most a lease old: older marks can go.
    for (const [id, at] of this.recalledAt) if (now - at > this.settings.leaseMs) this.recalledAt.delete(id);
    this.recalledAt.set(endpointId, now);
    this.endpointReads.delete(endpointId);
    const held = this.board.takeWaitingOf(endpointId);
    if (held.length > 0) void this.giveBack(held);
  }

  private async giveBack(deliveries: readonly ClaimedDelivery[]): Promise<void> {
    this.counts.givenBack += deliveries.length;
    webhookDispatchGivenBack.inc(deliveries.length);
    try {
      // Still well within the lease (startWindowMs), so no other worker holds these rows yet.
      await this.repository.release(deliveries.map((d) => d.id));
    } catch (error) {
      // Left leased: any replica claims them once the lease passes.
      this.logger.warn(`giving back ${deliveries.length} waiting deliveries failed: ${errorMessage(error)}`);
    }
    this.wake();
  }

  private launch(delivery: ClaimedDelivery): void {
    this.inFlight.set(delivery.id, this.attemptAndRecord(delivery));
  }

  /** One async function rather than a then/catch/finally chain: one promise per attempt, not three. */
  private async attemptAndRecord(delivery: ClaimedDelivery): Promise<void> {
    try {
      const result = await this.attempt(delivery);
      if (result) this.recorder.add(result);
    } catch (error) {
      this.logger.error(`attempt of ${delivery.id} failed unexpectedly: ${errorMessage(error)}`);
    } finally {
      this.inFlight.delete(delivery.id);
      this.board.done(delivery);
      if (this.running) this.pump();
      if (this.limited && this.board.room >= this.claimThreshold) this.wake();
    }
  }

  /** One attempt; undefined when shutdown abandoned it (not recorded, claim given back). */
  private async attempt(delivery: ClaimedDelivery): Promise<AttemptResult | undefined> {
    const body = deliveryBody(delivery.eventId ?? delivery.id, delivery.payload);
    if (!body.ok) return attemptResult(delivery, serviceFailure(body.reason));
    let target = this.targets.peek(delivery.endpointId, delivery.url, delivery.secretCiphertext);
    if (!target) {
      try {
        target = await this.targets.get(delivery.endpointId, delivery.url, delivery.secretCiphertext);
      } catch (error) {
        return attemptResult(delivery, serviceFailure(errorMessage(error)));
      }
    }
    this.counts.attempted++;
    const post = { url: target.url, secret: target.secret, body: body.bytes };
    const sent = tracingEnabled() ? await this.tracedSend(delivery, post) : await this.sender.send(post);
    if (sent.abandoned) return undefined;
    observeAttempt(sent);
    return attemptResult(delivery, sent);
  }

  /** The attempt as a CLIENT span continuing the trace stored with the delivery at intake. */
  private tracedSend(delivery: ClaimedDelivery, post: SignedPost): ReturnType<WebhookSender['send']> {
    const attributes = {
      'webhook.delivery.id': delivery.id,
      'webhook.endpoint.id': delivery.endpointId,
      'webhook.attempt': delivery.attemptCount + 1,
      'server.address': post.url.hostname,
    };
    const parent = delivery.traceContext
      ? contextFromHeaders({ traceparent: delivery.traceContext })
      : undefined;
    return inSpan('webhook attempt', { kind: SpanKind.CLIENT, parent, attributes }, async (span) => {
      const sent = await this.sender.send(post);
      span?.setAttribute('http.response.status_code', sent.responseStatusCode);
      if (!sent.ok) markSpanFailed(span, sent.error ?? 'failed');
      return sent;
    });
  }
}
