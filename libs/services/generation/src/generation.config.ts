import { loadConfig, vars, z } from '@genasset/config';

/** One pack of creative units for sale, as upstream's `GetPublicOscuPricesResponse.prices[]`. */
const creativeUnitsPack = z.strictObject({
  creativeUnits: z.number().int().positive(),
  /** The price in the currency's minor unit (cents), as upstream's unitAmount. */
  unitAmount: z.number().int().nonnegative(),
  currency: z.string().regex(/^[a-z]{3}$/, 'a lowercase ISO 4217 code, e.g. usd'),
  /** Days the bought units stay valid. */
  expires: z.number().int().positive().optional(),
});
export type CreativeUnitsPack = z.infer<typeof creativeUnitsPack>;

/** generation-service's own settings, validated once at start. */
export const generationEnv = z.object({
  /**
   * How long caption, describe-style, embed, prompt and translate requests wait
   * for their job to finish, so the response can carry the result as upstream's
   * does; 0 answers at once (the job carries the result when it is done).
   */
  GENERATION_RESULT_WAIT: vars.duration('15s'),
  /**
   * The packs of creative units the operator sells (`GET /v1/oscu/prices`): a JSON array of
   * `{ creativeUnits, unitAmount, currency, expires? }`. Default: none (the product sells nothing).
   */
  CREATIVE_UNITS_PRICES: z
    .string()
    .default('[]')
    .transform((v, ctx) => {
      try {
        return JSON.parse(v) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'expected a JSON array of packs' });
        return z.NEVER;
      }
    })
    .pipe(z.array(creativeUnitsPack).max(100)),
});

export type GenerationConfig = z.infer<typeof generationEnv>;

export const GENERATION_CONFIG = Symbol('GENERATION_CONFIG');

export function loadGenerationConfig(env: NodeJS.ProcessEnv = process.env): GenerationConfig {
  return loadConfig(generationEnv, env);
}
