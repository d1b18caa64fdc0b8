export { BlobTooLargeError, InvalidBlobKeyError, assertBlobKey, isBlobKey, type BlobStorage, type PutOptions, type StoredBlob, type StoredContent } from './storage.js';
export { createFilesystemStorage, blobPath, TEMPORARY_DIR, type FilesystemStorageOptions } from './filesystem.js';
export { createStorage, type StorageSettings } from './create.js';
