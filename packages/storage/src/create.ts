import { createFilesystemStorage } from './filesystem.js';
import type { BlobStorage } from './storage.js';

/** Which driver, with its settings (the runtime builds this from the environment). */
export type StorageSettings = { driver: 'filesystem'; root: string };

/** The driver the settings name. */
export function createStorage(settings: StorageSettings): BlobStorage {
  switch (settings.driver) {
    case 'filesystem':
      return createFilesystemStorage({ root: settings.root });
  }
}
