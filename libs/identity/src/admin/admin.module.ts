import { Module, type DynamicModule } from '@nestjs/common';
import { AdminController } from './admin.controller';
import { ADMIN_TOKEN, AdminTokenGuard } from './admin-token.guard';

/** Mounts `/admin/v1/*`; needs IdentityModule (global) in the app. */
@Module({})
export class AdminModule {
  static forToken(adminToken: string): DynamicModule {
    return {
      module: AdminModule,
      controllers: [AdminController],
      providers: [{ provide: ADMIN_TOKEN, useValue: adminToken }, AdminTokenGuard],
    };
  }
}
