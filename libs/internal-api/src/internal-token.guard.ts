import { createHash, timingSafeEqual } from 'node:crypto';
import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { PROCESS_ENV } from '@genasset/config';
import { ApiError } from '@genasset/http';

/** Guards `/internal/v1/*`: only services holding INTERNAL_API_TOKEN may call. */
@Injectable()
export class InternalTokenGuard implements CanActivate {
  private readonly expected?: Buffer;

  constructor(@Inject(PROCESS_ENV) env: NodeJS.ProcessEnv) {
    this.expected = env.INTERNAL_API_TOKEN ? digest(env.INTERNAL_API_TOKEN) : undefined;
  }

  canActivate(context: ExecutionContext): boolean {
    const header = context.switchToHttp().getRequest<{ headers: Record<string, string | undefined> }>()
      .headers.authorization;
    const token = /^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1];
    if (!this.expected || !token || !timingSafeEqual(digest(token), this.expected)) {
      throw new ApiError(401, 'unauthorized', 'internal route: a valid INTERNAL_API_TOKEN is required');
    }
    return true;
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
