import Ajv from 'ajv';
import addFormats from 'ajv-formats';

/** The parts of a served OpenAPI 3 document the checker reads. */
export interface OpenApiDocument {
  paths: Record<string, unknown>;
  components?: Record<string, unknown>;
}

/**
 * For tests: checks a real answer against the served OpenAPI document. Returns
 * what is wrong, empty when the route, its status and its body are all as
 * documented. `path` is the request path (query ignored), e.g. `/v1/collections/collection_…`.
 */
export function openApiResponseChecker(
  document: OpenApiDocument,
): (method: string, path: string, status: number, body: unknown) => string[] {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: 'openapi', components: document.components ?? {} });
  const routes = Object.entries(document.paths).map(([template, item]) => ({
    template,
    item: item as Record<
      string,
      { responses?: Record<string, { content?: Record<string, { schema?: object }> }> }
    >,
    pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
  }))
    // As the router matches: a static segment wins over a parameter (`…/training-images/pairs`
    // is not `…/training-images/{trainingImageId}`), so templates with fewer parameters come first.
    .sort((a, b) => a.template.split('{').length - b.template.split('{').length);
  return (method, path, status, body) => {
    const bare = path.split('?')[0];
    const route = routes.find((r) => r.pattern.test(bare) && r.item[method.toLowerCase()]);
    const where = `${method.toUpperCase()} ${route?.template ?? bare}`;
    if (!route) return [`${where}: route not documented`];
    const response = route.item[method.toLowerCase()].responses?.[String(status)];
    if (!response) return [`${where}: status ${status} not documented`];
    const schema = response.content?.['application/json']?.schema;
    if (!schema) return [`${where} ${status}: no response schema`];
    const validate = ajv.compile(
      JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"openapi#/components/')) as object,
    );
    if (validate(body)) return [];
    return (validate.errors ?? []).map(
      (error) =>
        `${where} ${status}: ${error.instancePath || '(body)'} ${error.message} ${JSON.stringify(error.params)}`,
    );
  };
}
