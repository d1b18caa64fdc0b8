import { createHash } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { isBlobKey, type BlobStorage } from './storage.js';

/** What a row says it stored: the blob key and sha256 it recorded, and a label for the report (e.g. the row's id). */
export interface BlobRecord {
  key: string;
  sha256: string;
  label: string;
}

export interface BlobMismatch extends BlobRecord {
  /** `missing`: no such blob (or the key cannot be one); `different`: its bytes do not hash to the recorded sha256. */
  problem: 'missing' | 'different';
  /** For `different`: the SHA-256 of the bytes actually stored. */
  actualSha256?: string;
}

/**
 * Re-reads every recorded blob (streamed, one at a time) and reports those that are missing or
 * whose bytes no longer match the recorded SHA-256. Read errors other than "missing" are thrown.
 */
export async function checkBlobs(
  storage: BlobStorage,
  records: AsyncIterable<BlobRecord> | Iterable<BlobRecord>,
): Promise<BlobMismatch[]> {
  const mismatches: BlobMismatch[] = [];
  for await (const record of records) {
    const content = isBlobKey(record.key) ? await storage.get(record.key) : null;
    if (!content) {
      mismatches.push({ ...record, problem: 'missing' });
      continue;
    }
    const hash = createHash('sha256');
    await pipeline(content.stream, async (chunks: AsyncIterable<Buffer>) => {
      for await (const chunk of chunks) hash.update(chunk);
    });
    const actual = hash.digest('hex');
    if (actual !== record.sha256) mismatches.push({ ...record, problem: 'different', actualSha256: actual });
  }
  return mismatches;
}
