import type { K8sObject } from './kustomize';

/**
 * The public route ownership of DESIGN §1, as sample requests: the Compose
 * gateway (nginx.conf) and the Kubernetes HTTPRoutes must send each public
 * path to its owner and none of the private ones anywhere. gateway.spec.ts sends them through
 * nginx; routeProblems (below) resolves them against the HTTPRoutes with the Gateway API's
 * matching (Exact, PathPrefix, RegularExpression) and URL rewrites.
 */
export const HTTP_SERVICES = [
  'asset-service',
  'collection-service',
  'generation-service',
  'job-service',
  'webhook-dispatcher',
] as const;
/** Services with public routes but no API reference of their own (backend callbacks: docs/backends/replicate.md). */
export const CALLBACK_SERVICES = ['inference-worker'] as const;
export type HttpService = (typeof HTTP_SERVICES)[number] | (typeof CALLBACK_SERVICES)[number];

/** path → owning service (the upstream receives the same path). */
export const PUBLIC_ROUTES: [string, HttpService][] = [
  ['/v1/assets', 'asset-service'],
  ['/v1/assets/asset_01J/download', 'asset-service'],
  ['/v1/assets/public/asset_01J', 'asset-service'],
  ['/v1/uploads', 'asset-service'],
  ['/v1/uploads/upload_01J', 'asset-service'],
  ['/v1/search/assets', 'asset-service'],
  // The web console's static files (apps/console), served by asset-service.
  ['/console', 'asset-service'],
  ['/console/static/index-abc123.js', 'asset-service'],
  ['/console/webhooks/we_01J', 'asset-service'],
  ['/v1/collections', 'collection-service'],
  ['/v1/collections/collection_01J/assets', 'collection-service'],
  ['/v1/generate/txt2img', 'generation-service'],
  ['/v1/generate/custom/model_01J', 'generation-service'],
  ['/v1/models', 'generation-service'],
  ['/v1/models/model_01J/training-images', 'generation-service'],
  ['/v1/search/models', 'generation-service'],
  ['/v1/jobs', 'job-service'],
  ['/v1/jobs/job_01J', 'job-service'],
  ['/v1/me', 'job-service'],
  ['/v1/teams/team_01J/usage', 'job-service'],
  ['/v1/teams/team_01J/credit-alerts', 'job-service'],
  ['/v1/projects/proj_01J/webhook-endpoints', 'webhook-dispatcher'],
  ['/v1/projects/proj_01J/webhook-endpoints/we_01J/deliveries', 'webhook-dispatcher'],
  ['/v1/teams/team_01J/webhook-endpoints', 'webhook-dispatcher'],
  ['/v1/teams/team_01J/webhook-endpoints/we_01J', 'webhook-dispatcher'],
  ['/v1/backend-callbacks/replicate/0b6a2c5e-1f7d-4a7b-9a5e-3c2f1d0e9b8a', 'inference-worker'],
];

/** Each service's API reference under its name: public path → path the service sees. */
export const DOCS_ROUTES: [string, HttpService, string][] = HTTP_SERVICES.flatMap(
  (service): [string, HttpService, string][] => [
    [`/${service}/docs`, service, '/docs'],
    [`/${service}/docs/swagger-ui-init.js`, service, '/docs/swagger-ui-init.js'],
    [`/${service}/v1/openapi.json`, service, '/v1/openapi.json'],
  ],
);

/** Paths the public side must never route to any service. */
export const PRIVATE_PATHS = [
  '/admin/v1/teams',
  '/admin/v1/teams/team_01J/credit-plan',
  '/admin/v1/api-keys',
  '/internal/v1/jobs',
  '/internal/v1/jobs/job_01J',
  '/internal/v1/assets/existing',
  '/internal/v1/models/model_01J',
  '/v1/files/assets/a.png',
  '/readyz',
  '/metrics',
  '/v1/assetsx',
  '/v1/search/collections',
  '/v1/teams/team_01J',
  '/v1/teams/team_01J/members',
  '/v1/projects/proj_01J',
  '/v1/openapi.json',
  '/job-service/admin/v1/teams',
  '/job-service/internal/v1/jobs',
  '/asset-service/healthz',
  '/job-service/docs/../../admin/v1/teams',
  '/v1/jobs/../../admin/v1/teams',
  '/v1/assets/%2e%2e/%2e%2e/internal/v1/jobs',
  '//admin/v1/teams',
];

/**
 * The URI normalisation a gateway applies before matching routes (percent-decoding, merged slashes,
 * dot segments; as nginx and Envoy's `normalize_path` do); undefined for a URI it refuses (400).
 */
export function normalizeUri(raw: string): string | undefined {
  let path = raw.split('?')[0];
  try {
    path = decodeURIComponent(path);
  } catch {
    return undefined;
  }
  const out: string[] = [];
  for (const segment of path.split('/').slice(1)) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(segment);
  }
  return `/${out.join('/')}${path.endsWith('/') && out.length > 0 ? '/' : ''}`;
}

export interface HttpRouteSpec {
  parentRefs: { name: string }[];
  rules: {
    matches: { path: { type: string; value: string } }[];
    filters?: {
      type: string;
      urlRewrite?: { path: { type: string; replacePrefixMatch?: string; replaceFullPath?: string } };
    }[];
    backendRefs: { name: string; port: number }[];
  }[];
}

/** Every (route, rule) of `routes` matching `rawPath`, with the path its backend receives. */
function routeMatches(routes: K8sObject[], rawPath: string): { backend: string; path: string }[] {
  const path = normalizeUri(rawPath);
  if (path === undefined) return [];
  const found: { backend: string; path: string }[] = [];
  for (const route of routes) {
    for (const rule of (route.spec as HttpRouteSpec).rules) {
      const match = rule.matches.find(({ path: m }) =>
        m.type === 'Exact'
          ? path === m.value
          : m.type === 'PathPrefix'
            ? path === m.value || path.startsWith(`${m.value.replace(/\/$/, '')}/`)
            : m.type === 'RegularExpression' && new RegExp(`^(?:${m.value})$`).test(path),
      );
      if (!match) continue;
      let upstreamPath = path;
      for (const filter of rule.filters ?? []) {
        const rewrite = filter.urlRewrite?.path;
        if (rewrite?.type === 'ReplacePrefixMatch')
          upstreamPath = `${rewrite.replacePrefixMatch}${path.slice(match.path.value.length)}`;
        if (rewrite?.type === 'ReplaceFullPath') upstreamPath = rewrite.replaceFullPath!;
      }
      for (const backend of rule.backendRefs)
        found.push({ backend: `${backend.name}:${backend.port}`, path: upstreamPath });
    }
  }
  return found;
}

/** What the HTTPRoutes get wrong; empty when they route exactly as DESIGN §1 says. */
export function routeProblems(routes: K8sObject[]): string[] {
  const problems: string[] = [];
  for (const [path, owner] of PUBLIC_ROUTES) {
    const m = routeMatches(routes, path);
    if (m.length !== 1 || m[0].backend !== `${owner}:8080` || m[0].path !== path)
      problems.push(`${path} → ${JSON.stringify(m)} (expected ${owner})`);
  }
  for (const [path, owner, upstreamPath] of DOCS_ROUTES) {
    const m = routeMatches(routes, path);
    if (m.length !== 1 || m[0].backend !== `${owner}:8080` || m[0].path !== upstreamPath)
      problems.push(`${path} → ${JSON.stringify(m)} (expected ${owner}${upstreamPath})`);
  }
  for (const path of PRIVATE_PATHS) {
    const m = routeMatches(routes, path);
    if (m.length > 0) problems.push(`${path} must not be public, but reaches ${JSON.stringify(m)}`);
  }
  return problems;
}
