import { plainToInstance, TransformationType } from 'class-transformer';
import type { MetadataStorage } from 'class-transformer/types/MetadataStorage';

// class-transformer's own metadata (what its decorators registered). Not in its typed entry point;
// @nestjs/mapped-types reads it the same way.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as {
  defaultMetadataStorage: MetadataStorage;
};

type Class = new () => object;
/** Any constructor, as class-transformer's metadata names targets. */
type AnyConstructor = abstract new (...args: never[]) => unknown;

/** How one property of a class is built from its plain value. */
type Rule = { kind: 'copy' } | { kind: 'nested'; type: Class } | { kind: 'unsupported' };

/** Per class: its rules by property name, or null when the class needs class-transformer itself. */
const plans = new Map<AnyConstructor, Map<string, Rule> | null>();
/** Property names remembered per class; beyond this (unexpected keys) rules are looked up, not kept. */
const MAX_RULES_PER_CLASS = 256;
const BUILT_INS = new Set<unknown>([
  Object,
  Array,
  Date,
  Map,
  Set,
  String,
  Number,
  Boolean,
  Buffer,
  Promise,
]);

/**
 * `plainToInstance(cls, plain)` for event payloads from parsed JSON, with the
 * same result for the classes it covers: a `cls` instance with every own key
 * of `plain` (but `__proto__` and `constructor`) copied, and objects or arrays
 * under `@Type(() => Nested)` built the same way as `Nested` instances.
 *
 * Why by hand: class-transformer looks up its metadata for every key of every
 * object on every call (~10 µs for a three-field payload on the 2-core test
 * machine, the largest item left in a consumer's envelope check). This looks
 * each rule up once per class and property. Classes using anything else
 * (`@Transform`, `@Expose`, `@Exclude`, discriminators, built-in targets such
 * as Date or Map) go to class-transformer.
 */
export function toPayloadInstance<T extends object>(cls: new () => T, plain: object): T {
  return (build(cls, plain) ?? plainToInstance(cls, plain)) as T;
}

/** The instance, or undefined when some part needs class-transformer. */
function build(cls: Class, plain: object): object | undefined {
  const plan = planOf(cls);
  if (plan === null) return undefined;
  const instance = new cls() as Record<string, unknown>;
  for (const key of Object.keys(plain)) {
    if (key === '__proto__' || key === 'constructor') continue;
    const value = (plain as Record<string, unknown>)[key];
    const rule = ruleOf(cls, plan, key);
    if (rule.kind === 'unsupported') return undefined;
    if (rule.kind === 'copy' || value === null || typeof value !== 'object') {
      instance[key] = value;
      continue;
    }
    const built = Array.isArray(value) ? buildEach(rule.type, value) : build(rule.type, value);
    if (built === undefined) return undefined;
    instance[key] = built;
  }
  return instance;
}

/** A `@Type` array: objects become instances, anything else is kept (as class-transformer does). */
function buildEach(cls: Class, items: unknown[]): unknown[] | undefined {
  const out: unknown[] = [];
  for (const item of items) {
    if (item === null || typeof item !== 'object') out.push(item);
    else if (Array.isArray(item)) return undefined;
    else {
      const built = build(cls, item);
      if (built === undefined) return undefined;
      out.push(built);
    }
  }
  return out;
}

function planOf(cls: Class): Map<string, Rule> | null {
  let plan = plans.get(cls);
  if (plan === undefined) {
    const plain =
      defaultMetadataStorage.getStrategy(cls) === 'none' &&
      defaultMetadataStorage.getExposedMetadatas(cls).length === 0 &&
      defaultMetadataStorage.getExcludedMetadatas(cls).length === 0;
    plan = plain ? new Map() : null;
    plans.set(cls, plan);
  }
  return plan;
}

function ruleOf(cls: Class, plan: Map<string, Rule>, key: string): Rule {
  let rule = plan.get(key);
  if (rule) return rule;
  rule = lookUp(cls, key);
  if (plan.size < MAX_RULES_PER_CLASS) plan.set(key, rule);
  return rule;
}

function lookUp(cls: Class, key: string): Rule {
  if (defaultMetadataStorage.findTransformMetadatas(cls, key, TransformationType.PLAIN_TO_CLASS).length > 0)
    return { kind: 'unsupported' };
  const type = defaultMetadataStorage.findTypeMetadata(cls, key);
  if (!type) return { kind: 'copy' };
  if (type.options?.discriminator || !type.typeFunction) return { kind: 'unsupported' };
  const target = type.typeFunction() as unknown;
  if (typeof target !== 'function' || BUILT_INS.has(target) || planOf(target as Class) === null)
    return { kind: 'unsupported' };
  return { kind: 'nested', type: target as Class };
}
