import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { timingSafeEqual, createHash } from 'node:crypto';
import { ApiError } from '@genasset/http';

export const ADMIN_TOKEN = Symbol('ADMIN_TOKEN');

/**
 * Operator routes (`/admin/v1/*`) take `Authorization: Bearer <ADMIN_TOKEN>`.
 * They are never routed through the public gateway; the token is a second wall.
 */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  private readonly expected: Buffer;

  constructor(@Inject(ADMIN_TOKEN) token: string) {
    this.expected = digest(token);
  }

  canActivate(context: ExecutionContext): boolean {
    const header = context.switchToHttp().getRequest<{ headers: Record<string, string | undefined> }>().headers.authorization;
    const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
    // Compare digests so the comparison is constant-time whatever the lengths.
    if (!match || !timingSafeEqual(digest(match[1]), this.expected)) {
      throw new ApiError(401, 'unauthorized', 'A valid admin token is required: Authorization: Bearer <ADMIN_TOKEN>');
    }
    return true;
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
