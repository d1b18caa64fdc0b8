import { join } from 'node:path';
import { createStorage, type BlobStorage } from '@platform/storage';
import type { Config } from './config.js';

/** The directory of the filesystem driver: `DATA_DIR/blobs`. */
export function blobsDir(config: Pick<Config, 'dataDir'>): string {
  return join(config.dataDir, 'blobs');
}

/** The blob storage the configuration names (`STORAGE_DRIVER`): files under DATA_DIR/blobs by default, or S3. */
export function openStorage(config: Pick<Config, 'dataDir' | 'storage'>): BlobStorage {
  const settings = config.storage;
  if (settings.driver === 's3') {
    const { endpoint, region, bucket, accessKeyId, secretAccessKey } = settings;
    return createStorage({ driver: 's3', endpoint, region, bucket, accessKeyId, secretAccessKey });
  }
  return createStorage({ driver: 'filesystem', root: blobsDir(config) });
}
