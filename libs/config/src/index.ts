export { loadConfig, ConfigError } from './load-config';
export { vars, parseDuration } from './vars';
export { commonEnv, type CommonEnv } from './common';
export { z } from 'zod';
export { PROCESS_ENV } from './process-env';
