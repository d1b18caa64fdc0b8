export {
  BlobTooLargeError,
  InvalidBlobKeyError,
  assertBlobKey,
  isBlobKey,
  type BlobStorage,
  type PutOptions,
  type StoredBlob,
  type StoredContent,
} from './storage.js';
export { createFilesystemStorage, blobPath, TEMPORARY_DIR, type FilesystemStorageOptions } from './filesystem.js';
export { createStorage, type StorageSettings } from './create.js';
export { createS3Storage, BLOB_PREFIX, TEMPORARY_PREFIX, type S3StorageOptions, type S3BlobStorage } from './s3.js';
export { checkBlobs, type BlobRecord, type BlobMismatch } from './check.js';
