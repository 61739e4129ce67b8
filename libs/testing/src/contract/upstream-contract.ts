import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { OpenApiDocument } from '../openapi-checker';

/** The parts of the upstream Swagger 2.0 document the contract reads. */
export interface SwaggerDocument {
  basePath?: string;
  paths: Record<string, Record<string, { responses?: Record<string, { schema?: { $ref?: string } }> }>>;
  definitions: Record<string, object>;
}

/** One upstream operation, keyed as the product serves it: `POST /v1/generate/custom/{modelId}`. */
export interface UpstreamOperation {
  key: string;
  method: string;
  /** Path with basePath (`/v1`) and upstream's parameter names. */
  path: string;
  /** The statuses upstream lists (`200`, and `269` for most dry runs). */
  statuses: string[];
}

/** The upstream reference, committed beside this file (see ../upstream/README.md). */
export const UPSTREAM_DOCUMENT_PATH = join(__dirname, '..', 'upstream', 'upstream-api.swagger.json');

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/**
 * Keywords of value ranges, not checked. Upstream puts its request ranges in
 * response shapes (an asset's `metadata.width` is 1024–2048 because skybox
 * takes that width, yet a txt2img asset is 512 wide, upstream's own too), and
 * writes some bounds as strings (`"maximum": "9.007199254740991E15"`). Left
 * out, the rest is what a typed client decodes with: required, types, enums.
 * (They are also the keywords Swagger 2.0 reads as draft 4, `exclusiveMinimum:
 * true`, and Ajv as draft 7: without them Ajv's default draft reads the rest.)
 */
const RANGE_KEYWORDS = [
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'uniqueItems',
];

/** `/v1/assets/{assetId}` and `/v1/assets/{id}` are the same route. */
const routeShape = (method: string, path: string) => `${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, '{}')}`;

/**
 * For tests: the upstream API reference as a contract the product's answers
 * must decode with. Each operation's success response schema (its
 * `#/definitions/…`) is compiled once, on first use, checking what a typed
 * client generated from upstream checks: required properties, types and enums
 * (not value ranges: RANGE_KEYWORDS). Additional properties pass (upstream's
 * schemas are open).
 */
export class UpstreamContract {
  readonly operations: readonly UpstreamOperation[];
  private readonly byKey = new Map<string, UpstreamOperation>();
  /** Operation key → status → the upstream definition its schema names. */
  private readonly responses = new Map<string, Map<string, string | undefined>>();
  // validateSchema off: upstream's string bounds are not valid JSON Schema, and they are not checked anyway.
  private readonly ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(private readonly document: SwaggerDocument) {
    addFormats(this.ajv);
    for (const keyword of RANGE_KEYWORDS) this.ajv.removeKeyword(keyword);
    const base = document.basePath && document.basePath !== '/' ? document.basePath : '';
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        if (!METHODS.includes(method)) continue;
        const key = `${method.toUpperCase()} ${base}${path}`;
        const responses = Object.entries(operation.responses ?? {});
        this.byKey.set(key, { key, method: method.toUpperCase(), path: `${base}${path}`, statuses: responses.map(([s]) => s) });
        this.responses.set(
          key,
          new Map(responses.map(([status, r]) => [status, r.schema?.$ref?.replace(/^#\/definitions\//, '')])),
        );
      }
    }
    this.operations = [...this.byKey.values()];
  }

  static load(file = UPSTREAM_DOCUMENT_PATH): UpstreamContract {
    return new UpstreamContract(JSON.parse(readFileSync(file, 'utf8')) as SwaggerDocument);
  }

  operation(key: string): UpstreamOperation | undefined {
    return this.byKey.get(key);
  }

  /**
   * The upstream operations that a served OpenAPI 3 document also has: same
   * method, same path whatever its parameters are named.
   */
  servedBy(served: OpenApiDocument): string[] {
    const shapes = new Set(
      Object.entries(served.paths).flatMap(([path, item]) =>
        Object.keys(item as object)
          .filter((m) => METHODS.includes(m))
          .map((m) => routeShape(m, path)),
      ),
    );
    return this.operations.filter((o) => shapes.has(routeShape(o.method, o.path))).map((o) => o.key);
  }

  /**
   * What keeps `body` from decoding as upstream's answer to `key` with
   * `status`; empty when it decodes. `definition` names the upstream
   * definition to check instead, for a deliberate, documented deviation.
   */
  check(key: string, status: number, body: unknown, options: { definition?: string } = {}): string[] {
    const operation = this.byKey.get(key);
    if (!operation) return [`${key}: not an upstream operation`];
    const where = `${key} ${status}`;
    let definition = options.definition;
    if (!definition) {
      if (!operation.statuses.includes(String(status)))
        return [`${where}: upstream lists only ${operation.statuses.join(', ')}`];
      definition = this.responses.get(key)!.get(String(status));
      if (!definition) return [`${where}: upstream gives no response schema`];
    }
    const validate = this.validator(definition);
    if (!validate) return [`${where}: no upstream definition ${definition}`];
    if (validate(body)) return [];
    return (validate.errors ?? []).map((error) => {
      const params = JSON.stringify(error.params);
      return `${where} (${definition}): ${error.instancePath || '(body)'} ${error.message} ${params.length > 160 ? `${params.slice(0, 160)}…` : params}`;
    });
  }

  private validator(definition: string): ValidateFunction | undefined {
    let validate = this.compiled.get(definition);
    if (!validate) {
      const schema = this.document.definitions[definition];
      if (!schema) return undefined;
      // Upstream definitions are self-contained (no $ref inside them), so each compiles alone.
      validate = this.ajv.compile(schema);
      this.compiled.set(definition, validate);
    }
    return validate;
  }
}
