import { ApiCallError, get } from '../api/api-client';

// Just enough of OpenAPI 3 to build forms from the API's own document.
export interface SchemaObject {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  items?: SchemaObject;
  properties?: Record<string, SchemaObject>;
  required?: string[];
  allOf?: SchemaObject[];
  oneOf?: SchemaObject[];
  anyOf?: SchemaObject[];
  description?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  nullable?: boolean;
}

export interface ParameterObject {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required?: boolean;
  description?: string;
  schema?: SchemaObject;
}

export interface OperationObject {
  summary?: string;
  deprecated?: boolean;
  parameters?: ParameterObject[];
  requestBody?: { content?: Record<string, { schema?: SchemaObject }> };
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OperationObject>>;
  components?: { schemas?: Record<string, SchemaObject> };
}

const documents = new Map<string, Promise<OpenApiDocument>>();

/**
 * The API's OpenAPI document. The platform serves one for every route at /v1/openapi.json; behind
 * the distributed gateway each service documents its own routes at /<service>/v1/openapi.json
 * (deploy/compose/nginx.conf), so that one is asked when the first is not there.
 */
export function loadOpenApi(service: string): Promise<OpenApiDocument> {
  let pending = documents.get(service);
  if (!pending) {
    pending = get<OpenApiDocument>('/v1/openapi.json').catch((error: unknown) => {
      if (error instanceof ApiCallError && error.status === 404)
        return get<OpenApiDocument>(`/${service}/v1/openapi.json`);
      throw error;
    });
    pending.catch(() => documents.delete(service));
    documents.set(service, pending);
  }
  return pending;
}

/** Follows `$ref` and single-member `allOf` (how Nest's generator wraps a described reference). */
export function resolveSchema(doc: OpenApiDocument, schema: SchemaObject | undefined): SchemaObject {
  let current = schema ?? {};
  for (let depth = 0; depth < 10; depth++) {
    if (current.$ref) {
      const name = current.$ref.split('/').pop() ?? '';
      const { $ref: _ref, ...rest } = current;
      current = { ...(doc.components?.schemas?.[name] ?? {}), ...rest };
    } else if (current.allOf?.length === 1) {
      const { allOf, ...rest } = current;
      current = { ...allOf[0], ...rest };
    } else break;
  }
  return current;
}

export function jsonBodySchema(doc: OpenApiDocument, operation: OperationObject): SchemaObject | undefined {
  const schema = operation.requestBody?.content?.['application/json']?.schema;
  return schema ? resolveSchema(doc, schema) : undefined;
}
