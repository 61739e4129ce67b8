import type { INestApplication } from '@nestjs/common';
import type { EventServer } from '../consumer/event-server';
import { MESSAGING_SERVER } from './messaging.tokens';

/**
 * Connects the messaging transport to an app: after this,
 * `await app.startAllMicroservices()` starts the consumers (call it after
 * `app.init()`/`listen()`, so handlers' dependencies are ready).
 *
 * Event handlers do not inherit the app's global enhancers, which are for HTTP
 * requests: the validation pipe would scan every envelope again as a request
 * body (the consumer pipeline validated it against the event registry; the
 * second walk was ~3.4 KB of garbage per event in the webhook intake), and the
 * HTTP error filter would render a handler's failure as a response nobody
 * reads (failures go to the processor: retries, dead letters). What applies to
 * them, the consumer span and error capture, @OnEvent puts on each handler.
 */
export function connectMessaging<S extends EventServer = EventServer>(app: INestApplication): S {
  const strategy = app.get<S>(MESSAGING_SERVER);
  app.connectMicroservice({ strategy }, { inheritAppConfig: false });
  return strategy;
}
