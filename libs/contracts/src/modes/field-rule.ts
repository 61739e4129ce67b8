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

type Base<T extends FieldRule['type']> = T extends 'string'
  ? string
  : T extends 'number' | 'integer'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'seed'
        ? number | string
        : T extends 'number[]'
          ? number[]
          : object;

/** An enum field is its values; with `Loose`, the base type (what a DTO property declares before IsIn narrows it). */
type Scalar<R extends FieldRule, Loose extends boolean> = R extends { enum: readonly (infer E)[] }
  ? Loose extends true
    ? Base<R['type']>
    : E
  : Base<R['type']>;

type ValueOf<R extends FieldRule, Loose extends boolean> = R extends { list: true }
  ? Scalar<R, Loose>[]
  : Scalar<R, Loose>;

type RequiredKeys<F extends FieldRules> = {
  [K in keyof F]: F[K] extends { required: true } ? K : never;
}[keyof F];

/**
 * The validated input of a mode with fields `F`: required fields present, optional ones absent
 * or null (class-validator's IsOptional lets null through, and a request may send it).
 * `Loose`: enums as their base type, the shape a route's body class declares.
 */
export type InputOf<F extends FieldRules, Loose extends boolean = false> = {
  [K in RequiredKeys<F>]: ValueOf<F[K], Loose>;
} & {
  [K in Exclude<keyof F, RequiredKeys<F>>]?: ValueOf<F[K], Loose> | null;
};
