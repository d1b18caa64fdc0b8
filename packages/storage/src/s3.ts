import { randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream';
import type { Readable } from 'node:stream';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { HashingCounter } from './hashing.js';
import { assertBlobKey, type BlobStorage, type PutOptions, type StoredBlob, type StoredContent } from './storage.js';

export interface S3StorageOptions {
  /** e.g. `http://127.0.0.1:8333` (SeaweedFS, Garage, …) or `https://s3.eu-central-1.amazonaws.com`. */
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/** Where blobs live in the bucket; writes in progress are under `TEMPORARY_PREFIX`. */
export const BLOB_PREFIX = 'blobs/';
export const TEMPORARY_PREFIX = 'tmp/';

/** Multipart part size (the S3 minimum) and parts in flight: at most 10 MiB of a write is in memory. */
const PART_SIZE = 5 * 1024 * 1024;
const QUEUE_SIZE = 2;

export type S3BlobStorage = BlobStorage & {
  /** The SDK client (for observation in tests; use the interface otherwise). */
  readonly client: S3Client;
  /** Closes the client's connections. */
  close(): void;
};

const isNotFound = (error: unknown) => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
};

/**
 * Content-addressed objects in an S3-compatible bucket. A write streams (multipart) to a temporary
 * object while hashing, then is copied to `blobs/<sha256>` and the temporary object deleted; a
 * write over `maxBytes` or a failing source aborts the upload and leaves no object.
 */
export function createS3Storage(options: S3StorageOptions): S3BlobStorage {
  const { bucket } = options;
  const client = new S3Client({
    endpoint: options.endpoint,
    region: options.region,
    credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
    // Non-AWS stores: path-style addressing, and no checksums the store may not know (DESIGN §13).
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const objectKey = (key: string) => {
    assertBlobKey(key);
    return `${BLOB_PREFIX}${key}`;
  };
  const exists = async (objectKey: string) => {
    try {
      await client.send(new HeadObjectCommand({ Bucket: bucket, Key: objectKey }));
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  };
  const remove = (objectKey: string) => client.send(new DeleteObjectCommand({ Bucket: bucket, Key: objectKey }));

  return {
    async put(source: Readable, putOptions: PutOptions = {}): Promise<StoredBlob> {
      const temporary = `${TEMPORARY_PREFIX}${randomUUID()}`;
      const hashing = new HashingCounter(putOptions.maxBytes);
      let sourceError: Error | undefined;
      // Too large or a failing source destroys `hashing` with the error, which fails the upload.
      pipeline(source, hashing, (error) => {
        if (error) sourceError = error;
      });
      const upload = new Upload({
        client,
        params: { Bucket: bucket, Key: temporary, Body: hashing },
        partSize: PART_SIZE,
        queueSize: QUEUE_SIZE,
        leavePartsOnError: false,
      });
      try {
        await upload.done(); // a failed multipart upload is aborted by `Upload` itself
        const key = hashing.digest();
        if (!(await exists(objectKey(key)))) {
          await client.send(
            new CopyObjectCommand({ Bucket: bucket, Key: objectKey(key), CopySource: `${bucket}/${temporary}` }),
          );
        }
        await remove(temporary);
        return { key, sha256: key, size: hashing.size };
      } catch (error) {
        hashing.destroy();
        source.destroy();
        await remove(temporary).catch(() => undefined);
        throw sourceError ?? error;
      }
    },

    async get(key: string): Promise<StoredContent | null> {
      try {
        const response = await client.send(new GetObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
        return { stream: response.Body as Readable, size: response.ContentLength ?? 0 };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },

    async delete(key: string): Promise<void> {
      await remove(objectKey(key)); // S3 answers 204 for a missing object too
    },

    async exists(key: string): Promise<boolean> {
      return exists(objectKey(key));
    },

    client,

    close() {
      client.destroy();
    },
  };
}
