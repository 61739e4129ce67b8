import { Controller, Get, HttpStatus, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { PublicRoute } from './public-route.decorator';
import { ReadinessRegistry } from './readiness.registry';

export interface HealthBody {
  status: 'ok' | 'unavailable';
  checks?: Record<string, string>;
  /** How passing checks are served, for those that say (e.g. `search: 'pgvector hnsw'`). */
  details?: Record<string, string>;
}

/** Liveness and readiness probes for orchestrators; not part of the public API. */
@ApiExcludeController()
@PublicRoute()
@Controller()
export class HealthController {
  constructor(private readonly registry: ReadinessRegistry) {}

  /** Liveness: the process answers. Checks nothing else, so a slow database never gets us killed. */
  @Get('healthz')
  live(): HealthBody {
    return { status: 'ok' };
  }

  @Get('readyz')
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<HealthBody> {
    const { ready, checks, details } = await this.registry.run();
    void reply
      .status(ready ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE)
      .header('cache-control', 'no-store');
    return { status: ready ? 'ok' : 'unavailable', checks, ...(details && { details }) };
  }
}
