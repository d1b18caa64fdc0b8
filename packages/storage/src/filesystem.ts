import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { HashingCounter } from './hashing.js';
import { assertBlobKey, type BlobStorage, type PutOptions, type StoredBlob, type StoredContent } from './storage.js';

export interface FilesystemStorageOptions {
  /** The root directory (`DATA_DIR/blobs`); created 0700 when missing. */
  root: string;
}

/** Temporary files of writes in progress live here, inside the root (same file system: the rename is atomic). */
export const TEMPORARY_DIR = '.tmp';

const DIR_MODE = 0o700;
const FILE_MODE = 0o600;
/** Read size of downloads: 256 KiB; at most this much is buffered per download in flight. */
const READ_CHUNK_BYTES = 256 * 1024;

/** Where a blob lives: `<root>/ab/cd/<sha256>`. */
export function blobPath(root: string, key: string): string {
  assertBlobKey(key);
  return join(root, key.slice(0, 2), key.slice(2, 4), key);
}

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * Content-addressed files under a root directory. A write streams into a temporary file inside the
 * root while hashing and counting, is flushed to disk, then renamed into place; any failure (too
 * large, a source that errors or is destroyed) removes the temporary file.
 */
export function createFilesystemStorage({ root }: FilesystemStorageOptions): BlobStorage {
  const temporaryDir = join(root, TEMPORARY_DIR);
  let prepared: Promise<unknown> | undefined;
  const prepare = () =>
    (prepared ??= mkdir(temporaryDir, { recursive: true, mode: DIR_MODE }).catch((error) => {
      prepared = undefined;
      throw error;
    }));

  return {
    localPath: (key) => blobPath(root, key),

    async put(source: Readable, options: PutOptions = {}): Promise<StoredBlob> {
      await prepare();
      const temporary = join(temporaryDir, `${randomUUID()}.part`);
      const hashing = new HashingCounter(options.maxBytes);
      let key: string;
      // Opened at once, exclusively, 0600; `flush` syncs it to disk before it closes.
      const sink = createWriteStream(temporary, { flags: 'wx', mode: FILE_MODE, flush: true });
      try {
        await pipeline(source, hashing, sink);
        key = hashing.digest();
        const target = blobPath(root, key);
        await mkdir(join(target, '..'), { recursive: true, mode: DIR_MODE });
        if (await isFile(target)) {
          await rm(temporary, { force: true }); // the same bytes are stored already: keep that blob
        } else {
          await rename(temporary, target);
        }
      } catch (error) {
        source.destroy();
        // The file may still be opening; remove it once the stream has let go of it.
        if (!sink.closed) await new Promise<void>((resolve) => sink.once('close', () => resolve()));
        await rm(temporary, { force: true });
        throw error;
      }
      return { key, sha256: key, size: hashing.size };
    },

    async get(key: string): Promise<StoredContent | null> {
      const path = blobPath(root, key);
      let handle;
      try {
        handle = await open(path, 'r');
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
      try {
        const { size } = await handle.stat();
        // Larger reads than the default 64 KiB: a quarter as many read and write calls per file.
        return { stream: handle.createReadStream({ highWaterMark: READ_CHUNK_BYTES }), size };
      } catch (error) {
        await handle.close();
        throw error;
      }
    },

    async delete(key: string): Promise<void> {
      await rm(blobPath(root, key), { force: true });
    },

    async exists(key: string): Promise<boolean> {
      return isFile(blobPath(root, key));
    },
  };
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
}
