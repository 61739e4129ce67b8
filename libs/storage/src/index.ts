export type {
  ObjectStore,
  PutOptions,
  PutResult,
  UploadOptions,
  ObjectInfo,
  StoredObject,
  SignedUrlOptions,
  ListOptions,
  CompletedPart,
  UploadedPart,
  PartUrlOptions,
} from './object-store';
export {
  ObjectNotFoundError,
  InvalidObjectKeyError,
  ContentLengthMismatchError,
  MultipartUploadError,
  type MultipartErrorCode,
} from './storage.errors';
export { validateObjectKey, validateObjectPrefix, encodeKeyPath, MAX_KEY_BYTES } from './object-key';
export { MAX_SIGNED_URL_SECONDS } from './expiry';
export { MIN_PART_BYTES, MAX_PART_BYTES } from './multipart-rules';
export { attachmentDisposition } from './response-headers';
export { S3ObjectStore, type S3ObjectStoreOptions } from './s3/s3-object-store';
export {
  FilesystemObjectStore,
  type FilesystemObjectStoreOptions,
  FILES_PATH,
} from './filesystem/filesystem-object-store';
export { UrlSigner, type SignedFileParams, type SignatureCheck } from './filesystem/url-signer';
export { FilesController } from './filesystem/files.controller';
export { FilesModule } from './filesystem/files.module';
export {
  createObjectStore,
  storageKind,
  storageEnv,
  type StorageConfig,
  type StorageKind,
} from './create-object-store';
export { StorageModule, type StorageModuleOptions } from './storage.module';
export { OBJECT_STORE } from './storage.tokens';
export { sniff, SNIFF_BYTES, type SniffedContent } from './content-sniffer';
