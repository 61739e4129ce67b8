import { loadConfig, vars, z } from '@genasset/config';

/** generation-service's own settings, validated once at start. */
export const generationEnv = z.object({
  /**
   * How long caption, describe-style, embed, prompt and translate requests wait
   * for their job to finish, so the response can carry the result as upstream's
   * does; 0 answers at once (the job carries the result when it is done).
   */
  GENERATION_RESULT_WAIT: vars.duration('15s'),
});

export type GenerationConfig = z.infer<typeof generationEnv>;

export const GENERATION_CONFIG = Symbol('GENERATION_CONFIG');

export function loadGenerationConfig(env: NodeJS.ProcessEnv = process.env): GenerationConfig {
  return loadConfig(generationEnv, env);
}
