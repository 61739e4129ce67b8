import type { LoggerService, LogLevel } from '@nestjs/common';

/**
 * Nest's own start-up chatter: one line per module loaded, per controller and
 * per route mapped (about 200 lines for the platform), and "successfully
 * started". It says nothing an operator acts on, and a person running
 * `npm start` lost the credentials' whereabouts among it.
 */
export const NEST_BOOTSTRAP_CONTEXTS: ReadonlySet<string> = new Set([
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestFactory',
  'NestApplication',
  'NestMicroservice',
]);

/**
 * The app's logger with Nest's start-up `log` lines demoted to `debug`
 * (`LOG_LEVEL=debug` shows them again). Their warnings and errors, and every
 * other context's lines, pass as they are.
 */
export function quietNestBootstrap(logger: LoggerService): LoggerService {
  const isBootstrap = (params: unknown[]): boolean => {
    const context = params.at(-1);
    return typeof context === 'string' && NEST_BOOTSTRAP_CONTEXTS.has(context);
  };
  return {
    log: (message: unknown, ...params: unknown[]) =>
      isBootstrap(params) && logger.debug ? logger.debug(message, ...params) : logger.log(message, ...params),
    error: (message: unknown, ...params: unknown[]) => logger.error(message, ...params),
    warn: (message: unknown, ...params: unknown[]) => logger.warn(message, ...params),
    debug: (message: unknown, ...params: unknown[]) => logger.debug?.(message, ...params),
    verbose: (message: unknown, ...params: unknown[]) => logger.verbose?.(message, ...params),
    fatal: (message: unknown, ...params: unknown[]) => logger.fatal?.(message, ...params),
    setLogLevels: (levels: LogLevel[]) => logger.setLogLevels?.(levels),
  };
}
