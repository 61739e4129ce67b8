import type { INestApplication } from '@nestjs/common';
import type { EventServer } from '../consumer/event-server';
import { MESSAGING_SERVER } from './messaging.tokens';

/**
 * Connects the messaging transport to an app: after this,
 * `await app.startAllMicroservices()` starts the consumers (call it after
 * `app.init()`/`listen()`, so handlers' dependencies are ready). Global pipes,
 * interceptors and filters of the app apply to event handlers too.
 */
export function connectMessaging<S extends EventServer = EventServer>(app: INestApplication): S {
  const strategy = app.get<S>(MESSAGING_SERVER);
  app.connectMicroservice({ strategy }, { inheritAppConfig: true });
  return strategy;
}
