import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { context, trace, type Link } from '@opentelemetry/api';
import { Observable } from 'rxjs';
import { httpSpans } from './http-spans';
import { contextFromHeaders, inSpan, SpanKind, spanContextOf, tracingEnabled } from './tracing';

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
 * above all — carries the trace on. Installed only when tracing is on
 * (createHttpApp), and applies to event handlers too: the messaging transport
 * inherits the app's global interceptors.
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
   * conventions for batch receive).
   */
  private consume(delivery: DeliveryLike, data: unknown, next: CallHandler): Observable<unknown> {
    const envelopes = (Array.isArray(data) ? data : [data]) as EnvelopeLike[];
    const first = envelopes[0]?.trace;
    const parent = contextFromHeaders(first?.traceparent ? first : delivery.headers);
    const links: Link[] = [];
    for (const envelope of envelopes.slice(1)) {
      const linked = spanContextOf(envelope?.trace?.traceparent);
      if (linked) links.push({ context: linked });
    }
    const attributes = {
      'messaging.system': 'kafka',
      'messaging.operation.type': 'process',
      'messaging.destination.name': delivery.topic,
      'messaging.consumer.group.name': delivery.consumer,
      'messaging.destination.partition.id': String(delivery.partition),
      'messaging.kafka.offset': delivery.offset,
      'messaging.batch.message_count': envelopes.length,
      ...(envelopes.length === 1 && typeof envelopes[0]?.id === 'string'
        ? { 'messaging.message.id': envelopes[0].id }
        : {}),
      ...(typeof envelopes[0]?.type === 'string' ? { 'genasset.event.type': envelopes[0].type } : {}),
    };
    return new Observable((subscriber) => {
      inSpan(
        `process ${delivery.topic}`,
        { kind: SpanKind.CONSUMER, parent, links, attributes },
        async () => {
          // The handler's result is a single value (or none): collect it inside the span.
          const values: unknown[] = [];
          await new Promise<void>((resolve, reject) =>
            next.handle().subscribe({ next: (v) => values.push(v), error: reject, complete: resolve }),
          );
          return values;
        },
      ).then(
        (values) => {
          for (const v of values) subscriber.next(v);
          subscriber.complete();
        },
        (error: unknown) => subscriber.error(error),
      );
    });
  }
}
