import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { blobPath, checkBlobs, createFilesystemStorage, type BlobRecord } from '../src/index.js';

const base = mkdtempSync(join(tmpdir(), 'storage-check-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

async function* rows(records: BlobRecord[]): AsyncIterable<BlobRecord> {
  for (const record of records) yield record;
}

describe('checkBlobs', () => {
  it('reports missing blobs and blobs whose bytes changed, and nothing for intact ones', async () => {
    const root = join(base, 'blobs');
    const storage = createFilesystemStorage({ root });
    const intact = await storage.put(Readable.from([Buffer.from('intact')]));
    const altered = await storage.put(Readable.from([Buffer.from('altered')]));
    const deleted = await storage.put(Readable.from([Buffer.from('deleted')]));
    writeFileSync(blobPath(root, altered.key), 'tampered'); // bit rot or tampering on disk
    await storage.delete(deleted.key);
    const wrongRecord = await storage.put(Readable.from([Buffer.from('row says otherwise')]));

    const mismatches = await checkBlobs(
      storage,
      rows([
        { key: intact.key, sha256: intact.sha256, label: 'media med_1' },
        { key: altered.key, sha256: altered.sha256, label: 'media med_2' },
        { key: deleted.key, sha256: deleted.sha256, label: 'artifact art_1' },
        { key: wrongRecord.key, sha256: '0'.repeat(64), label: 'artifact art_2' },
        { key: '../../etc/passwd', sha256: intact.sha256, label: 'artifact art_3' },
      ]),
    );
    expect(mismatches).toEqual([
      {
        key: altered.key,
        sha256: altered.sha256,
        label: 'media med_2',
        problem: 'different',
        actualSha256: createHash('sha256').update('tampered').digest('hex'),
      },
      { key: deleted.key, sha256: deleted.sha256, label: 'artifact art_1', problem: 'missing' },
      {
        key: wrongRecord.key,
        sha256: '0'.repeat(64),
        label: 'artifact art_2',
        problem: 'different',
        actualSha256: wrongRecord.sha256,
      },
      { key: '../../etc/passwd', sha256: intact.sha256, label: 'artifact art_3', problem: 'missing' },
    ]);
    expect(await checkBlobs(storage, [{ key: intact.key, sha256: intact.sha256, label: 'ok' }])).toEqual([]);
  });
});
