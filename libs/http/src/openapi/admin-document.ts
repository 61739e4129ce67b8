import type { OpenAPIObject } from '@nestjs/swagger';

/** Operator routes (`/admin/v1/…`): kept off the public gateway and out of the public document. */
export const ADMIN_PATH_PREFIX = '/admin/';
export const ADMIN_OPENAPI_JSON_PATH = '/admin/v1/openapi.json';
export const ADMIN_DOCS_PATH = '/admin/docs';
/** The admin API's one credential: `Authorization: Bearer <ADMIN_TOKEN>`. */
export const ADMIN_SECURITY_SCHEME = 'AdminToken';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'] as const;
const SCHEMA_REF = '#/components/schemas/';

export interface SplitDocuments {
  /** Every path but the admin ones, with every schema it had but those only admin paths use. */
  public: OpenAPIObject;
  /** The admin paths and the schemas they use; undefined when the app has no admin path. */
  admin?: OpenAPIObject;
}

/**
 * Splits the document Nest generated for the whole app into the public API's
 * and the admin API's. One scan of the controllers describes both, so the two
 * documents cannot disagree on a shared schema (the error body).
 */
export function splitAdminDocument(document: OpenAPIObject, adminTitle: string): SplitDocuments {
  const isAdmin = (path: string) => path.startsWith(ADMIN_PATH_PREFIX);
  const adminPaths = Object.fromEntries(Object.entries(document.paths).filter(([path]) => isAdmin(path)));
  const publicPaths = Object.fromEntries(Object.entries(document.paths).filter(([path]) => !isAdmin(path)));
  const schemas = document.components?.schemas ?? {};
  const usedByAdmin = referencedSchemas(adminPaths, schemas);
  const usedByPublic = referencedSchemas(publicPaths, schemas);
  // Schemas no path references (extra models) stay where they always were: in the public document.
  const publicSchemas = Object.fromEntries(
    Object.entries(schemas).filter(([name]) => usedByPublic.has(name) || !usedByAdmin.has(name)),
  );
  const publicDocument: OpenAPIObject = {
    ...document,
    paths: publicPaths,
    components: { ...document.components, schemas: publicSchemas },
  };
  if (Object.keys(adminPaths).length === 0) return { public: publicDocument };

  for (const item of Object.values(adminPaths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (operation) operation.security = [{ [ADMIN_SECURITY_SCHEME]: [] }];
    }
  }
  const admin: OpenAPIObject = {
    openapi: document.openapi,
    info: {
      ...document.info,
      title: adminTitle,
      description:
        'Operator API: provisions teams, projects and API keys, and sets credit plans. ' +
        'Authenticated with the admin token (ADMIN_TOKEN; in embedded mode, adminToken in bootstrap.json). ' +
        'Never routed by the public gateway.',
    },
    paths: adminPaths,
    components: {
      schemas: Object.fromEntries(Object.entries(schemas).filter(([name]) => usedByAdmin.has(name))),
      securitySchemes: {
        [ADMIN_SECURITY_SCHEME]: { type: 'http', scheme: 'bearer', description: 'The admin token' },
      },
    },
    security: [{ [ADMIN_SECURITY_SCHEME]: [] }],
  };
  return { public: publicDocument, admin };
}

/** Names of the component schemas reachable from these paths, through schemas referencing schemas. */
function referencedSchemas(paths: object, schemas: Record<string, unknown>): Set<string> {
  const found = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (value === null || typeof value !== 'object') return;
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string' && child.startsWith(SCHEMA_REF)) {
        const name = child.slice(SCHEMA_REF.length);
        if (!found.has(name)) {
          found.add(name);
          visit(schemas[name]);
        }
      } else visit(child);
    }
  };
  visit(paths);
  return found;
}
