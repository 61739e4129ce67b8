import { cosine, dice, round, stats, words } from './score-math';

/** Syntax upstream's prompt parser refuses (its messages), checked in this order. */
const SYNTAX: [RegExp, string][] = [
  [/https?:\/\//i, 'Unsupported url in prompt'],
  [/<(?:lora:)?[^<>:\s]+:[^<>]*>/i, 'Unsupported prompt syntax: <name:weight> or <lora:name:weight>'],
  [/--(?:s|c)ref\b/i, 'Unsupported prompt syntax: --(s|c)ref'],
  [/\[[^\]]*::?[^\]]*\]/, "Unsupported prompt syntax: '[to:when], [from::when]'"],
  [/(?:\)|\w):\s*\d+(?:\.\d+)?/, "Unsupported prompt syntax: 'word:<weight>' or '(word):<weight>'. Please use 'word<weight>' or '(word)<weight>' instead"],
];

/**
 * How well a prompt matches what the model was trained on (docs/models.md:
 * Prompt score): the words it shares with the training captions (Dice-Sørensen,
 * per caption), the cosine of its word counts with those of all captions
 * together, and its Dice similarity with the model's preset prompts.
 */
export function promptScore(modelId: string, prompt: string | undefined, captions: readonly string[], presetPrompts: readonly string[]) {
  const usable = captions.filter((c) => c.trim());
  const examples = presetPrompts.filter((p) => p.trim());
  const syntaxError = prompt ? SYNTAX.find(([pattern]) => pattern.test(prompt))?.[1] : undefined;
  const promptWords = words(prompt ?? '');
  const captionsSimilarity = stats(usable.map((c) => dice(promptWords, words(c))));
  const embeddingSimilarity = round(cosine(...countVectors(prompt ?? '', usable.join(' '))));
  const promptsSimilarity = examples.length ? stats(examples.map((p) => dice(promptWords, words(p)))) : undefined;
  const components = [captionsSimilarity.mean, Math.max(0, embeddingSimilarity), ...(promptsSimilarity ? [promptsSimilarity.mean] : [])];
  const score = !prompt?.trim() || syntaxError || usable.length === 0 ? 0 : round(components.reduce((a, b) => a + b, 0) / components.length);
  return {
    modelId,
    score,
    status: !prompt?.trim() ? 'unknown' : usable.length === 0 ? 'incomplete' : 'complete',
    details: { captionsSimilarity, embeddingSimilarity, ...(promptsSimilarity ? { promptsSimilarity } : {}) },
    ...(syntaxError ? { syntaxError } : {}),
  };
}

/** Word-count vectors of two texts over their joint vocabulary. */
function countVectors(a: string, b: string): [number[], number[]] {
  const count = (t: string) => {
    const m = new Map<string, number>();
    for (const w of t.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) m.set(w, (m.get(w) ?? 0) + 1);
    return m;
  };
  const [ca, cb] = [count(a), count(b)];
  const vocabulary = [...new Set([...ca.keys(), ...cb.keys()])];
  return [vocabulary.map((w) => ca.get(w) ?? 0), vocabulary.map((w) => cb.get(w) ?? 0)];
}
