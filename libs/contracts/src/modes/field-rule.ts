/**
 * One request field of a mode and the rules the generate route enforces on it (the OpenAPI
 * property of the route's body says the same: mode-fields.spec.ts holds the two together).
 * The type of a mode's input follows from its rules ({@link InputOf}).
 */
export interface FieldRule {
  /** `seed`: a number, or a string of digits. `number[]`: a tuple of numbers (a colour, a point). `object`: a nested body. */
  readonly type: 'string' | 'number' | 'integer' | 'boolean' | 'seed' | 'number[]' | 'object';
  readonly required?: true;
  /** A list of such values. */
  readonly list?: true;
  /** The only values accepted. */
  readonly enum?: readonly (string | number)[];
  /** Bounds of the value (of each number, for a tuple). */
  readonly min?: number;
  readonly max?: number;
  /** What the route documents as the default when the field is absent; engines use the same. */
  readonly default?: string | number | boolean;
}

export type FieldRules = Readonly<Record<string, FieldRule>>;

type Scalar<R extends FieldRule> = R extends { enum: readonly (infer E)[] }
  ? E
  : R['type'] extends 'string'
    ? string
    : R['type'] extends 'number' | 'integer'
      ? number
      : R['type'] extends 'boolean'
        ? boolean
        : R['type'] extends 'seed'
          ? number | string
          : R['type'] extends 'number[]'
            ? number[]
            : Record<string, unknown>;

type ValueOf<R extends FieldRule> = R extends { list: true } ? Scalar<R>[] : Scalar<R>;

type RequiredKeys<F extends FieldRules> = {
  [K in keyof F]: F[K] extends { required: true } ? K : never;
}[keyof F];

/**
 * The validated input of a mode with fields `F`: required fields present, optional ones absent
 * or null (class-validator's IsOptional lets null through, and a request may send it).
 */
export type InputOf<F extends FieldRules> = { [K in RequiredKeys<F>]: ValueOf<F[K]> } & {
  [K in Exclude<keyof F, RequiredKeys<F>>]?: ValueOf<F[K]> | null;
};
