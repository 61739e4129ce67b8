/**
 * Text PostgreSQL will not store: U+0000 (text and jsonb cannot hold it) and half of a UTF-16
 * surrogate pair (JSON.stringify writes it as a lone `\udXXX` escape, which jsonb refuses; text
 * would silently get U+FFFD). Whole pairs (emoji) are fine.
 */
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const EVERY_UNSTORABLE = new RegExp(UNSTORABLE.source, 'g');

export function isUnstorable(text: string): boolean {
  return UNSTORABLE.test(text);
}

/** The text with each NUL and half surrogate pair replaced by U+FFFD: for text we write ourselves (a reason). */
export function storable(text: string): string {
  return text.replace(EVERY_UNSTORABLE, '\ufffd');
}

/**
 * Whether the value parsed from this JSON text may hold such text: a `\u0000` escape, a
 * surrogate escape (paired or not), or a surrogate itself (an emoji). False, found by one native
 * scan without parsing, means it holds none; true means unstorablePath must look.
 */
const MAYBE_UNSTORABLE_JSON = /\\u0000|\\u[dD][89a-fA-F]|[\u0000\ud800-\udfff]/;

export function mayHoldUnstorable(json: string): boolean {
  return MAYBE_UNSTORABLE_JSON.test(json);
}

export function unstorableMessage(field: string): string {
  return `${field} must not contain NUL characters (U+0000) or unpaired UTF-16 surrogates`;
}

/**
 * The dotted path (from `root`) of the first string or key that PostgreSQL will not store, or
 * undefined. Iterative: any nesting depth.
 */
export function unstorablePath(value: unknown, root = ''): string | undefined {
  const stack: [unknown, string][] = [[value, root]];
  const join = (path: string, key: string | number) => (path ? `${path}.${key}` : String(key));
  while (stack.length > 0) {
    const [item, path] = stack.pop()!;
    if (typeof item === 'string') {
      if (UNSTORABLE.test(item)) return path;
    } else if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) stack.push([item[i], join(path, i)]);
    } else if (item !== null && typeof item === 'object' && !Buffer.isBuffer(item)) {
      const entries = Object.entries(item);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i];
        if (UNSTORABLE.test(key)) return join(path, key);
        stack.push([child, join(path, key)]);
      }
    }
  }
  return undefined;
}
