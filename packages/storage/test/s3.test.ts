import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { CreateBucketCommand, ListMultipartUploadsCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3Storage, createStorage, type S3BlobStorage } from '../src/index.js';
import { blobStorageContract } from './contract.js';

const BUCKET = 'blobs-test';
const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }; // s3rver's fixed test credentials
let directory: string;
let server: S3rver;
let endpoint: string;
let storage: S3BlobStorage;
let admin: S3Client;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'storage-s3-'));
  server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true });
  const { port } = await server.run();
  endpoint = `http://127.0.0.1:${port}`;
  admin = new S3Client({
    endpoint,
    region: 'us-east-1',
    credentials,
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  await admin.send(new CreateBucketCommand({ Bucket: BUCKET }));
  storage = createS3Storage({ endpoint, region: 'us-east-1', bucket: BUCKET, ...credentials });
});

afterAll(async () => {
  storage?.close();
  admin?.destroy();
  await server?.close();
  if (directory) rmSync(directory, { recursive: true, force: true });
});

/** Every object in the bucket and every multipart upload still open. */
async function leftovers(): Promise<string[]> {
  const objects = await admin.send(new ListObjectsV2Command({ Bucket: BUCKET }));
  const uploads = await admin.send(new ListMultipartUploadsCommand({ Bucket: BUCKET })).catch(() => ({ Uploads: [] }));
  return [
    ...(objects.Contents ?? []).map((o) => o.Key!),
    ...(uploads.Uploads ?? []).map((u) => `upload:${u.Key}`),
  ].sort();
}

blobStorageContract('s3', { storage: () => storage, leftovers });

describe('s3 driver', () => {
  it('stores blobs as blobs/<sha256> and removes its temporary object', async () => {
    const stored = await storage.put(Readable.from([Buffer.from('s3 layout')]));
    const keys = await leftovers();
    expect(keys).toContain(`blobs/${stored.key}`);
    expect(keys.filter((k) => !k.startsWith('blobs/'))).toEqual([]);
  });

  it('aborts the multipart upload of a failed write (a store keeps no parts)', async () => {
    // s3rver implements neither AbortMultipartUpload nor ListMultipartUploads, so the store cannot
    // be asked whether parts remain; the requests the driver sends are observed instead.
    const sent: string[] = [];
    const observer = 'observe-commands';
    storage.client.middlewareStack.add(
      (next, context) => (args) => (sent.push(context.commandName ?? '?'), next(args)),
      { step: 'initialize', name: observer },
    );
    try {
      const before = await leftovers();
      let chunks = 0;
      const source = new Readable({
        read() {
          if (chunks++ < 24)
            this.push(randomBytes(512 * 1024)); // 12 MiB: two parts of 5 MiB started
          else this.destroy(new Error('client went away'));
        },
      });
      await expect(storage.put(source)).rejects.toThrow('client went away');
      expect(sent).toContain('CreateMultipartUploadCommand');
      expect(sent).toContain('UploadPartCommand');
      expect(sent).toContain('AbortMultipartUploadCommand');
      expect(sent).not.toContain('CompleteMultipartUploadCommand');
      expect(sent).not.toContain('CopyObjectCommand');
      expect(await leftovers()).toEqual(before);
    } finally {
      storage.client.middlewareStack.remove(observer);
    }
  });

  it('createStorage picks the s3 driver', async () => {
    const picked = createStorage({
      driver: 's3',
      endpoint,
      region: 'us-east-1',
      bucket: BUCKET,
      ...credentials,
    }) as S3BlobStorage;
    try {
      const stored = await picked.put(Readable.from([Buffer.from('picked s3')]));
      expect(await storage.exists(stored.key)).toBe(true);
    } finally {
      picked.close();
    }
  });
});
