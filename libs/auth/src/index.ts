export { type Principal, type ApiKeyPrincipal, PUBLIC_AUTH_TOKEN } from './principal';
export { parseAuthorization, type Credentials } from './credentials';
export { type AuthOptions } from './auth-options';
export { Authenticated, CurrentPrincipal } from './auth.decorators';
export { AuthGuard } from './auth.guard';
export { AccessPolicy, requireApiKey, type ActingProject } from './access-policy';
export { ProjectIdQuery } from './project-id.query';
export { AuthModule } from './auth.module';
export { ApiKeyCache } from './api-key-cache';
