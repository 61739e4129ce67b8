import { ApiError } from '@genasset/http';
import { AdminController } from './admin/admin.controller';
import type { IdentityPrisma } from './identity.prisma';
import { IdentityRepository } from './identity.repository';
import { IdentityService } from './identity.service';

// No team, no project: what the admin API answers when the ids it is given do not exist.
describe('admin API, unknown ids', () => {
  const prisma = {
    team: { findUnique: () => Promise.resolve(null) },
    project: { findUnique: () => Promise.resolve(null) },
  } as unknown as IdentityPrisma;
  const controller = new AdminController(new IdentityService(new IdentityRepository(prisma)));
  const teamId = 'team_01M81850KRD8FF42GTXE06FPKJ';
  const projectId = 'proj_01M81850P2ZYFR6VMZNFWKDZJA';

  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error('accepted');
      },
      (error: unknown) => {
        expect(error).toBeInstanceOf(ApiError);
        return { status: (error as ApiError).getStatus(), message: (error as ApiError).message };
      },
    );

  it('answers 404 with a message that reads once', async () => {
    await expect(refusal(controller.createProject(teamId, { name: 'p' }))).resolves.toEqual({
      status: 404,
      message: `team ${teamId} not found`,
    });
    await expect(refusal(controller.createApiKey({ teamId, role: 'admin' }))).resolves.toEqual({
      status: 404,
      message: `team ${teamId} not found`,
    });
    await expect(refusal(controller.createApiKey({ teamId, projectId, role: 'admin' }))).resolves.toEqual({
      status: 404,
      message: `project ${projectId} of team ${teamId} not found`,
    });
  });
});
