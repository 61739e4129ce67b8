/**
 * Injection token of the environment the process was started with. Service
 * modules load their own settings from it (not from `process.env` directly),
 * so a test harness can run several configurations in one Node process.
 */
export const PROCESS_ENV = Symbol('PROCESS_ENV');
