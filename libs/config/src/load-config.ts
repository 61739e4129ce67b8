import { z } from 'zod';

/** Thrown at start when the environment does not satisfy an app's schema. */
export class ConfigError extends Error {
  constructor(readonly problems: { variable: string; message: string }[]) {
    super(
      'Invalid environment configuration:\n' +
        problems.map((p) => `  - ${p.variable}: ${p.message}`).join('\n'),
    );
    this.name = 'ConfigError';
  }
}

/**
 * Validates `env` once against a zod object schema whose keys are environment
 * variable names, returning the typed, defaulted result. Every bad variable is
 * named in one error, so an operator fixes them all in one go.
 */
export function loadConfig<S extends z.ZodObject>(
  schema: S,
  env: NodeJS.ProcessEnv = process.env,
): z.infer<S> {
  const source: Record<string, string | undefined> = {};
  for (const key of Object.keys(schema.shape)) {
    const value = env[key];
    // An empty variable means "not set", as in most twelve-factor tooling.
    source[key] = value === '' ? undefined : value;
  }
  const result = schema.safeParse(source);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => ({
        variable: String(issue.path[0] ?? '(root)'),
        message: issue.message,
      })),
    );
  }
  return result.data;
}
