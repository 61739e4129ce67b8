import { Module } from '@nestjs/common';
import { FilesController } from './files.controller';

/**
 * The route behind the filesystem store's signed URLs. `StorageModule.forRoot()`
 * imports it in filesystem mode; it needs `OBJECT_STORE` from there.
 */
@Module({ controllers: [FilesController] })
export class FilesModule {}
