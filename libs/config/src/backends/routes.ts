import { isGenerationMode } from '@genasset/contracts';

/** The route of model-training jobs: the image engine's built-in trainer, or an http trainer (docs/models.md). */
export const TRAINING_ROUTE = 'model-training';

/** Every route a configuration may name: each mode, detect:<modality>, and model-training. */
export function knownRoute(route: string): boolean {
  if (route === TRAINING_ROUTE) return true;
  if (route.startsWith('detect:')) return route.length > 'detect:'.length;
  return isGenerationMode(route);
}
