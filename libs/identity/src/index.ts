export { IDENTITY_SCHEMA } from './identity.schema';
export { ROLES, SCOPES, type Role, type Scope } from './roles';
export { IdentityModule } from './identity.module';
export { IdentityRepository } from './identity.repository';
export {
  IdentityService,
  IdentityNotFoundError,
  type TeamRecord,
  type ProjectRecord,
  type ApiKeyRecord,
  type IssuedApiKey,
} from './identity.service';
export { AdminModule } from './admin/admin.module';
export { AdminTokenGuard } from './admin/admin-token.guard';
export { KnownTenants, type RawQueryable } from './tenant-known.repository';
