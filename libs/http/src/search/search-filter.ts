import { ApiError } from '../errors/api-error';

/**
 * The `filter` of POST /v1/search/*: the subset of upstream's filter language
 * (Meilisearch-style expressions) the product answers, parsed by hand because
 * it is a dozen tokens and no maintained library parses exactly this subset
 * into parameterised SQL. Accepted:
 *
 *   attribute = value        attribute != value
 *   attribute IN [v1, v2]    createdAt|updatedAt > >= < <= <ISO date or epoch seconds>
 *   condition AND condition AND …
 *
 * Values are bare words or quoted ('…' or "…"). For array attributes (tags,
 * collectionIds) `=` means "contains", `!=` "does not contain", IN "contains
 * one of". Anything else (OR, NOT, parentheses, EXISTS, IS NULL, TO, another
 * attribute) is refused with a 400 naming `filter` and what is not supported.
 */
export type FilterCondition =
  | { attribute: string; op: '=' | '!='; value: string }
  | { attribute: string; op: 'IN'; values: string[] }
  | { attribute: string; op: '>' | '>=' | '<' | '<='; value: Date };

export interface FilterSpec {
  /** Attributes compared as plain values. */
  scalar: readonly string[];
  /** Attributes holding arrays (= means contains). */
  arrays: readonly string[];
  /** Timestamps, the only attributes with comparisons. */
  dates: readonly string[];
}

const TOKEN = /\s*(!=|>=|<=|=|>|<|\[|\]|,|\(|\)|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[^\s=!<>[\],()"']+)/y;
const UNSUPPORTED_WORDS = new Set(['OR', 'NOT', 'EXISTS', 'IS', 'NULL', 'EMPTY', 'TO', 'CONTAINS', 'STARTS']);

function refuse(message: string): never {
  throw ApiError.validation([{ field: 'filter', messages: [message] }]);
}

function tokenize(filter: string): { text: string; quoted: boolean }[] {
  const tokens: { text: string; quoted: boolean }[] = [];
  TOKEN.lastIndex = 0;
  let position = 0;
  while (position < filter.length) {
    if (/^\s*$/.test(filter.slice(position))) break;
    TOKEN.lastIndex = position;
    const match = TOKEN.exec(filter);
    if (!match) refuse(`filter cannot be read at character ${position + 1}`);
    const raw = match[1];
    const quoted = raw.startsWith('"') || raw.startsWith("'");
    tokens.push({ text: quoted ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw, quoted });
    position = TOKEN.lastIndex;
  }
  return tokens;
}

function parseDate(value: string, attribute: string): Date {
  const date = /^\d+(\.\d+)?$/.test(value) ? new Date(Number(value) * 1000) : new Date(value);
  if (Number.isNaN(date.getTime())) refuse(`filter: ${attribute} must be compared with an ISO 8601 date or epoch seconds, not ${JSON.stringify(value)}`);
  return date;
}

/** Parses `filter` into conditions all of which must hold. @throws ApiError 400 naming `filter` */
export function parseFilter(filter: string, spec: FilterSpec): FilterCondition[] {
  const tokens = tokenize(filter);
  const known = [...spec.scalar, ...spec.arrays, ...spec.dates];
  const conditions: FilterCondition[] = [];
  let i = 0;
  const next = () => tokens[i++];
  const unsupported = (t: { text: string; quoted: boolean } | undefined) => {
    if (!t) refuse('filter ends too early: expected attribute, operator and value');
    if (!t.quoted && (t.text === '(' || t.text === ')')) refuse('filter: parentheses are not supported (conditions can only be joined with AND)');
    if (!t.quoted && UNSUPPORTED_WORDS.has(t.text.toUpperCase())) {
      refuse(`filter: ${t.text.toUpperCase()} is not supported (supported: =, !=, IN [...], > >= < <= on dates, joined with AND)`);
    }
  };
  while (i < tokens.length) {
    const attr = next();
    unsupported(attr);
    if (attr.quoted || !known.includes(attr.text)) refuse(`filter: ${JSON.stringify(attr.text)} is not a filterable attribute (filterable: ${known.join(', ')})`);
    const op = next();
    unsupported(op);
    const attribute = attr.text;
    if (!op.quoted && op.text.toUpperCase() === 'IN') {
      if (spec.dates.includes(attribute)) refuse(`filter: ${attribute} supports comparisons (> >= < <=), not IN`);
      if (next()?.text !== '[') refuse(`filter: IN must be followed by a list in brackets: ${attribute} IN [a, b]`);
      const values: string[] = [];
      for (;;) {
        const v = next();
        unsupported(v);
        if (!v.quoted && (v.text === ']' || v.text === ',' || v.text === '[')) refuse(`filter: ${attribute} IN [...] lists values separated by commas`);
        values.push(v.text);
        const sep = next();
        if (sep?.text === ']' && !sep.quoted) break;
        if (sep?.text !== ',' || sep.quoted) refuse(`filter: ${attribute} IN [...] lists values separated by commas`);
      }
      conditions.push({ attribute, op: 'IN', values });
    } else if (!op.quoted && (op.text === '=' || op.text === '!=')) {
      const v = next();
      unsupported(v);
      if (spec.dates.includes(attribute)) refuse(`filter: ${attribute} supports comparisons (> >= < <=), not ${op.text}`);
      conditions.push({ attribute, op: op.text, value: v.text });
    } else if (!op.quoted && ['>', '>=', '<', '<='].includes(op.text)) {
      if (!spec.dates.includes(attribute)) refuse(`filter: ${op.text} is only supported on ${spec.dates.join(', ')}`);
      const v = next();
      unsupported(v);
      conditions.push({ attribute, op: op.text as '>' | '>=' | '<' | '<=', value: parseDate(v.text, attribute) });
    } else {
      refuse(`filter: ${JSON.stringify(op.text)} after ${attribute} is not a supported operator (=, !=, IN, > >= < <= on dates)`);
    }
    if (i < tokens.length) {
      const join = next();
      unsupported(join);
      if (join.quoted || join.text.toUpperCase() !== 'AND') refuse(`filter: conditions must be joined with AND, not ${JSON.stringify(join.text)}`);
      if (i >= tokens.length) refuse('filter ends with AND');
    }
  }
  if (!conditions.length) refuse('filter is empty');
  return conditions;
}
