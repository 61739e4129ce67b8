import { Global, Module } from '@nestjs/common';
import { IdentityPrisma } from './identity.prisma';
import { IdentityService } from './identity.service';

/** Global: every service's auth guard reads identity through IdentityService. */
@Global()
@Module({
  providers: [IdentityPrisma, IdentityService],
  exports: [IdentityService],
})
export class IdentityModule {}
