import { ApiError } from '../errors/api-error';

/**
 * Deepest JSON body the API parses: the top-level object or array is level 1.
 * No route takes more than a few levels; beyond this, recursive code further
 * on (the validation pipe, class-transformer) would run out of stack (a
 * 5,000-level body was a 500). Documented in docs/architecture.md.
 */
export const MAX_JSON_DEPTH = 64;

/** The one media type request bodies are read as. */
export const JSON_MEDIA_TYPE = 'application/json';

/**
 * A JSON request body as the handler receives it. An empty (or blank) body is
 * no body: many clients send `Content-Type: application/json` on every
 * request, DELETE and body-less PUT included. Refused with a 400: text that is
 * not JSON, a body nested deeper than {@link MAX_JSON_DEPTH}, and the keys
 * `__proto__` and `constructor.prototype` (prototype pollution), naming where
 * they are.
 */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    // JSON.parse stores a `__proto__` key as an ordinary own property, so it is
    // safe to parse first and refuse afterwards, naming the key's path.
    value = JSON.parse(text);
  } catch (error) {
    throw new ApiError(400, 'invalid_json', 'Request body is not valid JSON', {}, { cause: error });
  }
  const refusal = inspect(value, '', 1);
  if (refusal) throw refusal;
  return value;
}

// Hand-written: one walk gives both the depth and the path of a refused key,
// which no JSON library reports. Recursion stops at MAX_JSON_DEPTH, so the walk
// itself cannot exhaust the stack.
function inspect(value: unknown, path: string, depth: number): ApiError | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  if (depth > MAX_JSON_DEPTH) {
    return new ApiError(
      400,
      'bad_request',
      `Request body is nested more than ${MAX_JSON_DEPTH} levels deep`,
      { maxDepth: MAX_JSON_DEPTH },
    );
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const refusal = inspect(value[i], join(path, String(i)), depth + 1);
      if (refusal) return refusal;
    }
    return undefined;
  }
  for (const key of Object.keys(value)) {
    const field = join(path, key);
    const child = (value as Record<string, unknown>)[key];
    if (key === '__proto__') return refusedKey(field, 'the key __proto__ is never accepted');
    if (key === 'constructor' && typeof child === 'object' && child !== null && Object.hasOwn(child, 'prototype')) {
      return refusedKey(`${field}.prototype`, 'a constructor key holding prototype is never accepted');
    }
    const refusal = inspect(child, field, depth + 1);
    if (refusal) return refusal;
  }
  return undefined;
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

/** A 400 naming the key, like an unknown property: it is refused, not "not valid JSON". */
function refusedKey(field: string, reason: string): ApiError {
  return ApiError.validation([{ field, messages: [`property ${field} is refused: ${reason}`] }]);
}
