import { randomBytes } from 'node:crypto';
import { startServiceHarness, type ServiceHarness, type Tenant } from '@genasset/testing';
import { WEBHOOK_SCHEMA, WEBHOOK_SERVICE, WebhookDispatcherModule } from '../../src';

/** Development/test allowances: receivers on http://127.0.0.1 (the spec's defaults refuse both). */
export const PERMISSIVE = { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' };

/** The webhook-dispatcher as its app runs it, on the real database and broker. */
export function startWebhookHarness(env: Record<string, string> = PERMISSIVE): Promise<ServiceHarness> {
  return startServiceHarness({
    services: [{ name: WEBHOOK_SERVICE, schema: WEBHOOK_SCHEMA, module: WebhookDispatcherModule }],
    env: { WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'), ...env },
  });
}

export type Owner = { type: 'project' | 'team'; id: string; auth: string };

export const projectOwner = (t: Tenant): Owner => ({
  type: 'project',
  id: t.projectId,
  auth: t.auth.projectAdmin,
});
export const teamOwner = (t: Tenant): Owner => ({ type: 'team', id: t.teamId, auth: t.auth.teamAdmin });

export const endpointsPath = (owner: Pick<Owner, 'type' | 'id'>) =>
  `/v1/${owner.type}s/${owner.id}/webhook-endpoints`;

/** A distinct receiver URL per call (the same URL twice on one owner is a 409). */
export const uniqueUrl = (base = 'https://hooks.example.com') => `${base}/${randomBytes(4).toString('hex')}`;

/** An endpoint record as the API returns it (`secret` only from creation). */
export type EndpointRecord = Record<string, string | number | boolean | string[]> & {
  id: string;
  url: string;
  secret: string;
  createdAt: string;
  updatedAt: string;
};

export const ISO_MS_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** Creates an endpoint and returns the record (with its secret); fails the test on any other status. */
export async function createEndpoint(
  harness: ServiceHarness,
  owner: Owner,
  body: { url?: string; enabledEvents?: string[]; description?: string } = {},
): Promise<EndpointRecord> {
  const res = await harness.request('POST', endpointsPath(owner), {
    auth: owner.auth,
    body: {
      url: uniqueUrl(),
      enabledEvents: owner.type === 'project' ? ['*'] : ['team.credit.threshold.crossed'],
      ...body,
    },
  });
  if (res.status !== 200) throw new Error(`create endpoint: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.webhookEndpoint;
}
