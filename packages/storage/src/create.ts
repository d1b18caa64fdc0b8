import { createFilesystemStorage } from './filesystem.js';
import { createS3Storage, type S3StorageOptions } from './s3.js';
import type { BlobStorage } from './storage.js';

/** Which driver, with its settings (the runtime builds this from the environment). */
export type StorageSettings = { driver: 'filesystem'; root: string } | ({ driver: 's3' } & S3StorageOptions);

/** The driver the settings name. */
export function createStorage(settings: StorageSettings): BlobStorage {
  switch (settings.driver) {
    case 'filesystem':
      return createFilesystemStorage({ root: settings.root });
    case 's3': {
      const { driver: _driver, ...options } = settings;
      return createS3Storage(options);
    }
  }
}
