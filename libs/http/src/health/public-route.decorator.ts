import { SetMetadata } from '@nestjs/common';

/**
 * Marks a controller or handler that needs no credentials (probes, signed file
 * URLs). Auth guards read this key and let such requests through.
 */
export const PUBLIC_ROUTE = 'genasset:public-route';
export const PublicRoute = (): MethodDecorator & ClassDecorator => SetMetadata(PUBLIC_ROUTE, true);
