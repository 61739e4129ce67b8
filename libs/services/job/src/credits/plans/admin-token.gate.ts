import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { ApiError } from '@genasset/http';
import { AdminTokenGuard } from '@genasset/identity';

/**
 * The operator routes of job-service (`/admin/v1/teams/{teamId}/credit-plan`)
 * behind the same admin token as the rest of `/admin/v1`: this delegates to
 * identity's AdminTokenGuard, which exists only when the process mounts the
 * admin API (an admin token is configured). Without it the route answers 404,
 * like every other admin route of such a process.
 */
@Injectable()
export class AdminTokenGate implements CanActivate {
  private guard?: CanActivate | null;

  constructor(private readonly moduleRef: ModuleRef) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (this.guard === undefined) this.guard = this.find();
    if (!this.guard) throw ApiError.notFound('Admin API is not enabled in this process: route not found');
    return this.guard.canActivate(context) as boolean | Promise<boolean>;
  }

  private find(): CanActivate | null {
    try {
      return this.moduleRef.get(AdminTokenGuard, { strict: false });
    } catch {
      return null;
    }
  }
}
