import { z } from 'zod';
import { parseDuration } from '../vars';
import { knownRoute } from './routes';

// Parts every backend type's schema shares (backends-file.ts puts them together).

/** `30s`, `2m`, or a number of milliseconds. */
export const duration = (fallback: string) =>
  z
    .union([z.number().int().min(0), z.string()])
    .default(fallback)
    .transform((value, ctx) => {
      const ms = typeof value === 'number' ? value : parseDuration(value);
      if (ms === undefined) {
        ctx.addIssue({ code: 'custom', message: `"${String(value)}" is not a duration like 500ms, 30s, 2m` });
        return z.NEVER;
      }
      return ms;
    });

/** An environment variable's NAME: credentials are never written in the file itself. */
export const envName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { message: 'expected the name of an environment variable' });

/** How requests to the backend authenticate; each secret is read from the environment variable named. */
export const credentialsSchema = z.discriminatedUnion('scheme', [
  z.strictObject({ scheme: z.literal('bearer'), tokenEnv: envName }),
  z.strictObject({ scheme: z.literal('basic'), usernameEnv: envName, passwordEnv: envName }),
  z.strictObject({
    scheme: z.literal('header'),
    header: z.string().regex(/^[A-Za-z0-9-]{1,64}$/, { message: 'expected an HTTP header name' }),
    valueEnv: envName,
  }),
]);

export const route = z.string().refine(knownRoute, {
  message: 'not a generation mode (or detect:<modality>, model-training)',
});

/** The backend's address: http(s) only. */
export const httpUrl = z.url({ protocol: /^https?$/, message: 'Invalid URL (expected http:// or https://)' });

/** Largest output file taken from the backend, bytes. */
export const maxOutputBytes = z
  .number()
  .int()
  .min(1024)
  .default(64 * 1024 * 1024);

export type Credentials = z.infer<typeof credentialsSchema>;
