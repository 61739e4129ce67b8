import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { renderMetrics } from '@genasset/observability';
import type { FastifyReply } from 'fastify';
import { PublicRoute } from './public-route.decorator';

/**
 * Prometheus scrape endpoint: the process's one registry. Unauthenticated like
 * the probes (it holds counts and durations, no tenant data or secrets) and
 * kept off the public gateway (deploy/compose/nginx.conf, deploy/k8s routes).
 */
@ApiExcludeController()
@PublicRoute()
@Controller()
export class MetricsController {
  @Get('metrics')
  async metrics(@Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const { contentType, body } = await renderMetrics();
    void reply.header('content-type', contentType).header('cache-control', 'no-store');
    return body;
  }
}
