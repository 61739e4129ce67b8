import type { ServiceHarness, Tenant } from '@genasset/testing';
import {
  createEndpoint,
  endpointsPath,
  projectOwner,
  startWebhookHarness,
  teamOwner,
  uniqueUrl,
  type EndpointRecord,
  type Owner,
} from './support/webhook-harness';

jest.setTimeout(180_000);

// Spec, Authentication 4: project endpoints for project admins; team endpoints for team admins or
// keys with team.webhooks.manage. 401 without valid credentials, 403 for too little role, 404 for
// another tenant or owner (existence is not revealed).
describe('webhook endpoint authorisation', () => {
  let harness: ServiceHarness;
  let tenant: Tenant;
  let project: Owner;
  let team: Owner;
  let stranger: Tenant;
  let projectEndpoint: EndpointRecord;
  let teamEndpoint: EndpointRecord;

  beforeAll(async () => {
    harness = await startWebhookHarness();
    [tenant, stranger] = [await harness.tenant(), await harness.tenant()];
    project = projectOwner(tenant);
    team = teamOwner(tenant);
    projectEndpoint = await createEndpoint(harness, project);
    teamEndpoint = await createEndpoint(harness, team);
  });
  afterAll(() => harness?.close());

  const wrongSecret = () => {
    const [key] = Buffer.from(tenant.auth.projectAdmin.slice(6), 'base64').toString().split(':');
    return `Basic ${Buffer.from(`${key}:sk_wrong`).toString('base64')}`;
  };

  it('401 without credentials or with a wrong secret, on every route', async () => {
    for (const owner of [project, team]) {
      const base = endpointsPath(owner);
      const routes: [string, string][] = [
        ['POST', base],
        ['GET', base],
        ['PUT', `${base}/we_x`],
        ['DELETE', `${base}/we_x`],
        ['GET', `${base}/we_x/events`],
        ['GET', `${base}/we_x/events/whevent_x`],
        ['POST', `${base}/we_x/events/whevent_x/resend`],
        ['POST', `${base}/we_x/recover`],
      ];
      for (const [method, path] of routes) {
        for (const auth of [undefined, wrongSecret(), 'public-auth-token']) {
          const res = await harness.request(method, path, {
            auth,
            body: method === 'POST' || method === 'PUT' ? {} : undefined,
          });
          expect({ method, path, auth, status: res.status }).toEqual({ method, path, auth, status: 401 });
        }
      }
    }
  });

  it('project routes: 403 for a project member, 200 for the project admin and a team admin', async () => {
    const base = endpointsPath(project);
    const member = await harness.request('GET', base, { auth: tenant.auth.projectMember });
    expect(member.status).toBe(403);
    // 403 comes before body validation: a member learns nothing from an invalid body.
    expect((await harness.request('POST', base, { auth: tenant.auth.projectMember, body: {} })).status).toBe(
      403,
    );
    expect((await harness.request('GET', base, { auth: tenant.auth.projectAdmin })).status).toBe(200);
    expect((await harness.request('GET', base, { auth: tenant.auth.teamAdmin })).status).toBe(200);
  });

  it('team routes: 403 for a team member or a project admin without the scope; 200 for a team admin and a scoped key', async () => {
    const base = endpointsPath(team);
    expect((await harness.request('GET', base, { auth: tenant.auth.teamMember })).status).toBe(403);
    expect((await harness.request('POST', base, { auth: tenant.auth.teamMember, body: {} })).status).toBe(
      403,
    );
    expect((await harness.request('GET', base, { auth: tenant.auth.projectAdmin })).status).toBe(403);
    expect((await harness.request('GET', base, { auth: tenant.auth.teamAdmin })).status).toBe(200);
    const scoped = await harness.request('POST', base, {
      auth: tenant.auth.teamWebhookManager,
      body: { url: uniqueUrl(), enabledEvents: ['team.credit.threshold.crossed'] },
    });
    expect(scoped.status).toBe(200);
    const id = scoped.body.webhookEndpoint.id;
    expect(
      (
        await harness.request('PUT', `${base}/${id}`, {
          auth: tenant.auth.teamWebhookManager,
          body: { enabled: false },
        })
      ).status,
    ).toBe(200);
    expect((await harness.request('GET', base, { auth: tenant.auth.teamWebhookManager })).status).toBe(200);
    // The delivery operations (extensions) take the same callers.
    const since = new Date(Date.now() - 60_000).toISOString();
    const recover = `${base}/${teamEndpoint.id}/recover`;
    const resend = `${base}/${teamEndpoint.id}/events/whevent_x/resend`;
    for (const auth of [tenant.auth.teamMember, tenant.auth.projectAdmin]) {
      expect((await harness.request('POST', recover, { auth, body: {} })).status).toBe(403);
      expect((await harness.request('POST', resend, { auth })).status).toBe(403);
    }
    for (const auth of [tenant.auth.teamAdmin, tenant.auth.teamWebhookManager]) {
      expect((await harness.request('POST', recover, { auth, body: { since } })).status).toBe(202);
      // Past the guard: the delivery is what is not found.
      const res = await harness.request('POST', resend, { auth });
      expect(res).toMatchObject({ status: 404, body: { infos: { id: 'whevent_x' } } });
    }
    expect(
      (await harness.request('DELETE', `${base}/${id}`, { auth: tenant.auth.teamWebhookManager })).status,
    ).toBe(200);
  });

  it("404 for another tenant's project or team, and for another owner's endpoint", async () => {
    expect(
      (await harness.request('GET', endpointsPath(project), { auth: stranger.auth.projectAdmin })).status,
    ).toBe(404);
    expect(
      (await harness.request('GET', endpointsPath(team), { auth: stranger.auth.teamAdmin })).status,
    ).toBe(404);
    // The stranger's own routes, naming our endpoints.
    const theirProject = endpointsPath(projectOwner(stranger));
    const theirTeam = endpointsPath(teamOwner(stranger));
    for (const [base, auth, id] of [
      [theirProject, stranger.auth.projectAdmin, projectEndpoint.id],
      [theirTeam, stranger.auth.teamAdmin, teamEndpoint.id],
      // Same tenant, other owner kind: a project endpoint is not reachable through the team routes.
      [endpointsPath(team), tenant.auth.teamAdmin, projectEndpoint.id],
      [endpointsPath(project), tenant.auth.teamAdmin, teamEndpoint.id],
    ]) {
      expect((await harness.request('PUT', `${base}/${id}`, { auth, body: { enabled: false } })).status).toBe(
        404,
      );
      expect((await harness.request('DELETE', `${base}/${id}`, { auth })).status).toBe(404);
      expect((await harness.request('GET', `${base}/${id}/events`, { auth })).status).toBe(404);
      expect((await harness.request('POST', `${base}/${id}/events/whevent_x/resend`, { auth })).status).toBe(
        404,
      );
      const since = new Date(Date.now() - 60_000).toISOString();
      expect((await harness.request('POST', `${base}/${id}/recover`, { auth, body: { since } })).status).toBe(
        404,
      );
    }
    const list = await harness.request('GET', endpointsPath(project), { auth: project.auth });
    expect(list.body.webhookEndpoints.find((e: any) => e.id === projectEndpoint.id)).toMatchObject({
      enabled: true,
    });
  });
});
