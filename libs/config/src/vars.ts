import { z } from 'zod';

/** Reusable variable parsers: environment values are strings, these make them types. */
export const vars = {
  port: (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback),
  bool: (fallback: boolean) =>
    z
      .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'expected true or false' })
      .default(fallback ? 'true' : 'false')
      .transform((v) => v === 'true' || v === '1' || v === 'yes'),
  url: () => z.url({ message: 'expected an absolute URL' }),
  /** Comma-separated list, e.g. KAFKA_BROKERS=host1:9092,host2:9092 */
  list: () =>
    z.string().transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  /** Durations like "500ms", "30s", "2m", "1h" or a bare number of milliseconds. */
  duration: (fallback: string) =>
    z
      .string()
      .default(fallback)
      .transform((v, ctx) => {
        const ms = parseDuration(v);
        if (ms === undefined) {
          ctx.addIssue({ code: 'custom', message: `"${v}" is not a duration like 500ms, 30s, 2m` });
          return z.NEVER;
        }
        return ms;
      }),
  /** Comma-separated durations, e.g. WEBHOOK_RETRY_DELAYS=60s,120s */
  durations: (fallback: string) =>
    z
      .string()
      .default(fallback)
      .transform((v, ctx) => {
        const parts = v.split(',').map((s) => parseDuration(s.trim()));
        if (parts.some((p) => p === undefined)) {
          ctx.addIssue({ code: 'custom', message: `"${v}" is not a list of durations like 60s,120s` });
          return z.NEVER;
        }
        return parts as number[];
      }),
  logLevel: () => z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
};

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export function parseDuration(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(text.trim());
  if (!match) return undefined;
  return Math.round(Number(match[1]) * UNIT_MS[match[2] ?? 'ms']);
}
