import { Injectable } from '@nestjs/common';
import { IdentityPrisma } from './identity.prisma';
import type { Prisma } from './generated/prisma/client';

/** The identity schema's rows: teams, projects and API keys. */
@Injectable()
export class IdentityRepository {
  constructor(private readonly prisma: IdentityPrisma) {}

  createTeam(id: string, name: string) {
    return this.prisma.team.create({ data: { id, name } });
  }

  async teamExists(id: string): Promise<boolean> {
    return (await this.prisma.team.findUnique({ where: { id }, select: { id: true } })) !== null;
  }

  countTeams(): Promise<number> {
    return this.prisma.team.count();
  }

  createProject(id: string, teamId: string, name: string) {
    return this.prisma.project.create({ data: { id, teamId, name } });
  }

  findProject(id: string) {
    return this.prisma.project.findUnique({ where: { id } });
  }

  /** The team owning the project, or undefined when the project does not exist. */
  async teamOfProject(projectId: string): Promise<string | undefined> {
    const project = await this.prisma.project.findUnique({ where: { id: projectId }, select: { teamId: true } });
    return project?.teamId;
  }

  createApiKey(data: Prisma.ApiKeyUncheckedCreateInput) {
    return this.prisma.apiKey.create({ data });
  }

  findApiKey(id: string) {
    return this.prisma.apiKey.findUnique({ where: { id } });
  }

  /** Sets `revokedAt` unless already set (the first revocation stands), then reads it: undefined when no such key. */
  async revokeApiKey(id: string, at: Date): Promise<{ id: string; revokedAt: Date | null } | undefined> {
    await this.prisma.apiKey.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: at } });
    return (await this.prisma.apiKey.findUnique({ where: { id }, select: { id: true, revokedAt: true } })) ?? undefined;
  }
}
