import { getMetadataStorage, ValidationTypes } from 'class-validator';

type Validate = (value: unknown, args: object) => unknown;

interface Check {
  readonly validate: Validate;
  readonly constraints: unknown[];
  readonly each: boolean;
}

interface PropertyPlan {
  readonly name: string;
  /** IsOptional / ValidateIf: every one must hold for the property to be validated. */
  readonly conditions: ((object: object, value: unknown) => boolean)[];
  readonly checks: Check[];
  readonly nested: boolean;
}

/** Per class: its validation plan, or null when it uses something the plan does not cover. */
const plans = new Map<unknown, PropertyPlan[] | null>();

/**
 * True when `instance` (a payload class instance, as plainToInstance made it)
 * passes every validation decorator of its class and of nested ones.
 *
 * Why this exists next to class-validator: `validateSync` looks up and groups
 * the class's metadata and builds error objects on every call, ~3–5 µs per
 * event, which every consumer pays for every event. This runs the very same
 * constraint functions the decorators registered, from a plan built once per
 * class, in well under a microsecond. It only ever says "valid" when
 * class-validator would: false means "ask class-validator" (it names the
 * faults), and classes using anything the plan does not model (groups,
 * `always`, async or promise validation, IsDefined, Set/Map values) always
 * answer false.
 */
export function passesCompiledChecks(instance: object): boolean {
  const plan = planOf(instance.constructor);
  if (plan === null) return false;
  // One arguments object for every check of this call: the constraint functions read it
  // synchronously, and a fresh one per check was most of what validating an event allocated.
  const args = {
    targetName: instance.constructor?.name,
    property: '',
    object: instance,
    value: undefined as unknown,
    constraints: [] as unknown[],
  };
  for (const property of plan) {
    const value = (instance as Record<string, unknown>)[property.name];
    if (!property.conditions.every((condition) => condition(instance, value))) continue;
    args.property = property.name;
    args.value = value;
    for (const check of property.checks) {
      args.constraints = check.constraints;
      if (check.each && (value instanceof Set || value instanceof Map)) return false;
      if (check.each && Array.isArray(value)) {
        for (const item of value) if (!accepted(check.validate(item, args))) return false;
      } else if (!accepted(check.validate(value, args))) return false;
    }
    if (property.nested && !nestedValid(value)) return false;
  }
  return true;
}

/** class-validator's nested rule: undefined passes, arrays item by item, objects by their own class, anything else fails. */
function nestedValid(value: unknown): boolean {
  if (value === undefined) return true;
  if (value instanceof Set || value instanceof Map) return false;
  if (Array.isArray(value)) return value.every(nestedValid);
  if (value instanceof Object) return passesCompiledChecks(value);
  return false;
}

/** Only a synchronous truthy answer counts (a promise means async validation: let class-validator decide). */
function accepted(result: unknown): boolean {
  return Boolean(result) && !(result instanceof Promise);
}

function planOf(target: unknown): PropertyPlan[] | null {
  let plan = plans.get(target);
  if (plan === undefined) {
    plan = buildPlan(target);
    plans.set(target, plan);
  }
  return plan;
}

function buildPlan(target: unknown): PropertyPlan[] | null {
  const storage = getMetadataStorage();
  // The same selection validateSync makes without groups: always = false, strictGroups = false.
  const metadatas = storage.getTargetValidationMetadatas(target as new () => object, undefined as unknown as string, false, false);
  const byProperty = new Map<string, PropertyPlan>();
  for (const metadata of metadatas) {
    if (metadata.groups?.length || metadata.always !== undefined) return null;
    let property = byProperty.get(metadata.propertyName);
    if (!property) {
      property = { name: metadata.propertyName, conditions: [], checks: [], nested: false };
      byProperty.set(metadata.propertyName, property);
    }
    switch (metadata.type) {
      case ValidationTypes.CONDITIONAL_VALIDATION:
        property.conditions.push(metadata.constraints[0] as PropertyPlan['conditions'][number]);
        break;
      case ValidationTypes.NESTED_VALIDATION:
        (property as { nested: boolean }).nested = true;
        break;
      case ValidationTypes.WHITELIST:
        break; // only acts with the whitelist option, which payload validation does not use
      case ValidationTypes.CUSTOM_VALIDATION: {
        for (const constraint of storage.getTargetValidatorConstraints(metadata.constraintCls)) {
          if (constraint.async) return null;
          const instance = constraint.instance as { validate: Validate };
          property.checks.push({
            validate: (value, args) => instance.validate(value, args),
            constraints: metadata.constraints,
            each: Boolean(metadata.each),
          });
        }
        break;
      }
      default:
        return null; // IS_DEFINED, PROMISE_VALIDATION…: leave them to class-validator
    }
  }
  return [...byProperty.values()];
}
