import { Module } from '@nestjs/common';
import { FilesController } from './files.controller';
import { PartUploadRoute } from './part-upload.route';

/**
 * The routes behind the filesystem store's signed URLs: downloads (GET) and
 * multipart part uploads (PUT). `StorageModule.forRoot()` imports it in
 * filesystem mode; it needs `OBJECT_STORE` from there.
 */
@Module({ controllers: [FilesController], providers: [PartUploadRoute] })
export class FilesModule {}
