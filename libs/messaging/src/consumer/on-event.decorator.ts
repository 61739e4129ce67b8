import {
  applyDecorators,
  Injectable,
  UseInterceptors,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { EventPattern } from '@nestjs/microservices';
import { catchError, throwError, type Observable } from 'rxjs';
import type { EventEnvelope } from '@genasset/contracts';
import { TracingInterceptor } from '@genasset/observability';
import { EventContext } from './event-context';

export interface EventHandlerOptions {
  /** Consumer name: the Kafka consumer group, and the key of the inbox rows. */
  readonly consumer: string;
  /** Only these event types (default: every type on the topic not claimed by another handler). */
  readonly types?: readonly string[];
  /** Receive every fresh event of a delivery batch at once as `EventEnvelope[]` (one call, one statement). */
  readonly batch?: boolean;
  /**
   * Only events for which this returns true (after `types`, on the validated envelope). The
   * others are skipped like a type the consumer has no handler for: no transaction, no inbox
   * mark, offset committed. Only for events the handler would ignore anyway (a job of another
   * kind, a fact no receiver hears of): ignoring is idempotent without a mark, and the
   * transaction it saves is most of a consumer's cost per event.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each handler narrows its own payload type
  readonly when?: (envelope: EventEnvelope<any>) => boolean;
}

/**
 * Nest's RPC exception filter turns any non-RpcException into "Internal server
 * error" before the transport sees it; this keeps the original error on the
 * context, so retries log it and dead letters carry it as their reason.
 */
@Injectable()
export class CaptureEventErrors implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      catchError((error: unknown) => {
        const ctx = context.switchToRpc().getContext<unknown>();
        if (ctx instanceof EventContext) ctx.failure = error;
        return throwError(() => error);
      }),
    );
  }
}

/**
 * Declares an event handler: `@OnEvent(TOPICS.jobLifecycle, { consumer: 'webhook-dispatcher' })`.
 * Equivalent to `@EventPattern(topic, { consumer, … })` plus the consumer span (when tracing is
 * on; event handlers do not inherit the app's global interceptors, see connectMessaging) and
 * error capture.
 */
export function OnEvent(topic: string, options: EventHandlerOptions): MethodDecorator {
  return applyDecorators(EventPattern(topic, { ...options }), UseInterceptors(TracingInterceptor, CaptureEventErrors));
}
