import { Global, Module } from '@nestjs/common';
import { IdentityPrisma } from './identity.prisma';
import { IdentityRepository } from './identity.repository';
import { IdentityService } from './identity.service';

/** Global: every service's auth guard reads identity through IdentityService. */
@Global()
@Module({
  providers: [IdentityPrisma, IdentityRepository, IdentityService],
  exports: [IdentityService],
})
export class IdentityModule {}
