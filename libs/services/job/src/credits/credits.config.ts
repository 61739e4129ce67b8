import { loadConfig, z } from '@genasset/config';

/** job-service's creative-unit settings, validated once at start (docs/credits.md). */
export const creditsEnv = z.object({
  /**
   * A team without a credit plan: `unlimited` (default) runs its jobs unmetered (recorded in
   * the ledger, never refused); `refuse` answers 402 `no_credit_plan` to any job that costs units.
   */
  CREDITS_UNPLANNED_TEAMS: z.enum(['unlimited', 'refuse']).default('unlimited'),
});

export type CreditsConfig = z.infer<typeof creditsEnv>;

export const CREDITS_CONFIG = Symbol('job-service.credits-config');

export function loadCreditsConfig(env: NodeJS.ProcessEnv = process.env): CreditsConfig {
  return loadConfig(creditsEnv, env);
}
