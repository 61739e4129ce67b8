import { errorMessage } from '@genasset/contracts';
import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { context, SpanStatusCode, trace, type Attributes, type Link } from '@opentelemetry/api';
import { Observable } from 'rxjs';
import { httpSpans } from './http-spans';
import { contextFromHeaders, SpanKind, spanContextOf, tracer, tracingEnabled } from './tracing';

/** What an event handler's context carries (`EventContext.delivery` of @genasset/messaging), read structurally. */
interface DeliveryLike {
  consumer: string;
  topic: string;
  partition: number;
  offset: string;
  headers: Readonly<Record<string, string>>;
}

interface EnvelopeLike {
  id?: unknown;
  type?: unknown;
  trace?: { traceparent?: string; tracestate?: string };
}

/**
 * Makes the request's server span (HTTP) or a new consumer span (events) the
 * active context while a handler runs, so everything it does — outbox writes
 * above all — carries the trace on. A no-op while tracing is off: installed on
 * the app by createHttpApp (tracing on), and on every event handler by @OnEvent
 * (event handlers do not inherit the app's global enhancers).
 */
@Injectable()
export class TracingInterceptor implements NestInterceptor {
  intercept(host: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (!tracingEnabled()) return next.handle();
    if (host.getType() === 'http') {
      const request = host.switchToHttp().getRequest<{ raw?: object }>();
      const span = request?.raw ? httpSpans.get(request.raw) : undefined;
      if (!span) return next.handle();
      const active = trace.setSpan(context.active(), span);
      return new Observable((subscriber) => context.with(active, () => next.handle().subscribe(subscriber)));
    }
    if (host.getType() === 'rpc') {
      const delivery = (host.switchToRpc().getContext() as { delivery?: DeliveryLike } | undefined)?.delivery;
      if (!delivery?.headers) return next.handle();
      return this.consume(delivery, host.switchToRpc().getData(), next);
    }
    return next.handle();
  }

  /**
   * One CONSUMER span per handler call. A batch handler's span is parented to
   * its first event's producer and linked to the others' (OTel messaging
   * conventions for batch receive). Built without promises or extra
   * operators: this runs for every event a consumer applies.
   */
  private consume(delivery: DeliveryLike, data: unknown, next: CallHandler): Observable<unknown> {
    const envelopes = (Array.isArray(data) ? data : [data]) as EnvelopeLike[];
    const first = envelopes[0];
    const parent = contextFromHeaders(first?.trace?.traceparent ? first.trace : delivery.headers);
    const attributes: Attributes = {
      'messaging.system': 'kafka',
      'messaging.operation.type': 'process',
      'messaging.destination.name': delivery.topic,
      'messaging.consumer.group.name': delivery.consumer,
      'messaging.destination.partition.id': String(delivery.partition),
      'messaging.kafka.offset': delivery.offset,
      'messaging.batch.message_count': envelopes.length,
    };
    if (envelopes.length === 1 && typeof first?.id === 'string')
      attributes['messaging.message.id'] = first.id;
    if (typeof first?.type === 'string') attributes['genasset.event.type'] = first.type;
    let links: Link[] | undefined;
    for (let i = 1; i < envelopes.length; i++) {
      const linked = spanContextOf(envelopes[i]?.trace?.traceparent);
      if (linked) (links ??= []).push({ context: linked });
    }
    const span = tracer().startSpan(
      `process ${delivery.topic}`,
      { kind: SpanKind.CONSUMER, attributes, links },
      parent,
    );
    const active = trace.setSpan(parent, span);
    return new Observable((subscriber) =>
      context.with(active, () =>
        next.handle().subscribe({
          next: (value) => subscriber.next(value),
          error: (error: unknown) => {
            span.recordException(error instanceof Error ? error : String(error));
            span.setStatus({
              code: SpanStatusCode.ERROR,
              message: errorMessage(error),
            });
            span.end();
            subscriber.error(error);
          },
          complete: () => {
            span.end();
            subscriber.complete();
          },
        }),
      ),
    );
  }
}
