import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer, text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { BlobTooLargeError, InvalidBlobKeyError, type BlobStorage } from '../src/index.js';

export interface ContractSubject {
  storage: () => BlobStorage;
  /** Everything the driver keeps (files under the root, objects in the bucket), to prove a failed write left nothing. */
  leftovers: () => Promise<string[]>;
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A source that sends `chunks` and then fails, as a client that disconnects mid-upload. */
function failingSource(chunks: Buffer[]): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent < chunks.length) this.push(chunks[sent++]);
      else setImmediate(() => this.destroy(new Error('client went away')));
    },
  });
}

/** A source that yields `total` random bytes in `chunkSize` chunks, generated on the fly; `produced` counts what it made. */
export class GeneratedSource extends Readable {
  produced = 0;

  constructor(
    private readonly total: number,
    private readonly chunkSize = 64 * 1024,
  ) {
    super({ highWaterMark: chunkSize });
  }

  override _read(): void {
    if (this.produced >= this.total) return void this.push(null);
    const size = Math.min(this.chunkSize, this.total - this.produced);
    this.produced += size;
    this.push(randomBytes(size));
  }
}

/** The behaviour every driver must have; each driver's test file runs it. */
export function blobStorageContract(name: string, subject: ContractSubject): void {
  describe(`${name}: BlobStorage contract`, () => {
    it('round-trips the bytes and reports their sha256 and size', async () => {
      const storage = subject.storage();
      const bytes = randomBytes(300_000);
      const stored = await storage.put(Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]));
      expect(stored).toEqual({ key: sha256(bytes), sha256: sha256(bytes), size: bytes.length });
      const content = await storage.get(stored.key);
      expect(content?.size).toBe(bytes.length);
      expect((await buffer(content!.stream)).equals(bytes)).toBe(true);
      expect(await subject.leftovers()).toEqual(expect.arrayContaining([expect.stringContaining(stored.key)]));
    });

    it('stores an empty blob', async () => {
      const storage = subject.storage();
      const stored = await storage.put(Readable.from([]));
      expect(stored).toEqual({ key: sha256(Buffer.alloc(0)), sha256: sha256(Buffer.alloc(0)), size: 0 });
      expect(await text((await storage.get(stored.key))!.stream)).toBe('');
    });

    it('gives the same content the same key, stored once', async () => {
      const storage = subject.storage();
      const before = (await subject.leftovers()).length;
      const first = await storage.put(Readable.from([Buffer.from('same bytes, twice')]));
      const second = await storage.put(Readable.from([Buffer.from('same '), Buffer.from('bytes, twice')]));
      expect(second).toEqual(first);
      expect((await subject.leftovers()).length).toBe(before + 1);
      const other = await storage.put(Readable.from([Buffer.from('other bytes')]));
      expect(other.key).not.toBe(first.key);
    });

    it('answers null for a missing blob, and exists tells', async () => {
      const storage = subject.storage();
      const missing = sha256(randomBytes(16));
      expect(await storage.get(missing)).toBeNull();
      expect(await storage.exists(missing)).toBe(false);
      const stored = await storage.put(Readable.from([randomBytes(10)]));
      expect(await storage.exists(stored.key)).toBe(true);
    });

    it('deletes, and deleting again or a missing blob is no error', async () => {
      const storage = subject.storage();
      const stored = await storage.put(Readable.from([randomBytes(100)]));
      await storage.delete(stored.key);
      expect(await storage.exists(stored.key)).toBe(false);
      expect(await storage.get(stored.key)).toBeNull();
      await storage.delete(stored.key);
      await storage.delete(sha256(randomBytes(16)));
    });

    it('fails a write over maxBytes at once with BlobTooLargeError and keeps nothing', async () => {
      const storage = subject.storage();
      const before = await subject.leftovers();
      const source = new GeneratedSource(50 * 1024 * 1024);
      const error = await storage.put(source, { maxBytes: 1024 * 1024 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BlobTooLargeError);
      expect((error as BlobTooLargeError).maxBytes).toBe(1024 * 1024);
      expect(source.produced).toBeLessThan(10 * 1024 * 1024); // stopped early, not after reading everything
      expect(source.destroyed).toBe(true);
      expect(await subject.leftovers()).toEqual(before);
    });

    it('accepts exactly maxBytes', async () => {
      const storage = subject.storage();
      const bytes = randomBytes(4096);
      expect((await storage.put(Readable.from([bytes]), { maxBytes: 4096 })).size).toBe(4096);
    });

    it('keeps nothing when the source fails mid-way', async () => {
      const storage = subject.storage();
      const before = await subject.leftovers();
      const chunks = Array.from({ length: 20 }, () => randomBytes(512 * 1024)); // 10 MiB: beyond one S3 part
      await expect(storage.put(failingSource(chunks))).rejects.toThrow('client went away');
      expect(await subject.leftovers()).toEqual(before);
    });

    it('refuses keys that are not sha256 hex digests', async () => {
      const storage = subject.storage();
      const valid = sha256(Buffer.from('x'));
      for (const key of [
        '',
        '../../etc/passwd',
        `${valid}/../x`,
        valid.toUpperCase(),
        `${valid}0`,
        valid.slice(1),
        `./${valid.slice(2)}`,
        '..',
        `ab/cd/${valid}`,
      ]) {
        await expect(storage.get(key)).rejects.toBeInstanceOf(InvalidBlobKeyError);
        await expect(storage.exists(key)).rejects.toBeInstanceOf(InvalidBlobKeyError);
        await expect(storage.delete(key)).rejects.toBeInstanceOf(InvalidBlobKeyError);
      }
    });
  });
}
