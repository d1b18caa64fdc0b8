import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { blobPath, createFilesystemStorage, createStorage, TEMPORARY_DIR } from '../src/index.js';
import { blobStorageContract } from './contract.js';

const base = mkdtempSync(join(tmpdir(), 'storage-fs-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const root = join(base, 'blobs');
const storage = createFilesystemStorage({ root });

/** Every file under the root, temporary ones included. */
function files(dir: string): string[] {
  let found: string[] = [];
  try {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      found = entry.isDirectory() ? [...found, ...files(path)] : [...found, relative(root, path)];
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return found.sort();
}

blobStorageContract('filesystem', { storage: () => storage, leftovers: async () => files(root) });

describe('filesystem driver', () => {
  it('lays blobs out as <root>/ab/cd/<sha256>, directories 0700 and files 0600', async () => {
    const stored = await storage.put(Readable.from([Buffer.from('layout')]));
    const path = blobPath(root, stored.key);
    expect(relative(root, path)).toBe(join(stored.key.slice(0, 2), stored.key.slice(2, 4), stored.key));
    expect(statSync(path).mode & 0o777).toBe(0o600);
    for (const dir of [root, join(root, stored.key.slice(0, 2)), join(path, '..'), join(root, TEMPORARY_DIR)])
      expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('keeps an existing identical blob instead of replacing it', async () => {
    const first = await storage.put(Readable.from([Buffer.from('kept once')]));
    const before = statSync(blobPath(root, first.key));
    await storage.put(Readable.from([Buffer.from('kept once')]));
    const after = statSync(blobPath(root, first.key));
    expect(after.ino).toBe(before.ino);
    expect(files(join(root, TEMPORARY_DIR))).toEqual([]);
  });

  it('writes into a temporary file inside the root, visible under its key only when complete', async () => {
    let seenTemporary: string[] = [];
    const temporaries = () => files(root).filter((f) => f.startsWith(TEMPORARY_DIR));
    // The first MiB, then a pause until the partial file shows up (opening it is asynchronous), then the rest.
    async function* slowly() {
      const chunk = Buffer.alloc(1024 * 1024, 7);
      yield chunk;
      for (let i = 0; i < 200 && temporaries().length === 0; i++)
        await new Promise((resolve) => setTimeout(resolve, 10));
      seenTemporary = temporaries();
      yield chunk;
      yield chunk;
    }
    const stored = await storage.put(Readable.from(slowly()));
    expect(seenTemporary).toHaveLength(1);
    expect(seenTemporary[0]).toMatch(new RegExp(`^${TEMPORARY_DIR}/[0-9a-f-]+\\.part$`));
    expect(files(root).filter((f) => f.startsWith(TEMPORARY_DIR))).toEqual([]);
    expect(statSync(blobPath(root, stored.key)).size).toBe(3 * 1024 * 1024);
  });

  it('removes the temporary file when the source is destroyed without an error (aborted request)', async () => {
    const before = files(root);
    let sent = 0;
    const source: Readable = new Readable({
      read() {
        if (sent++ < 5) this.push(Buffer.alloc(64 * 1024, sent));
        else setImmediate(() => source.destroy());
      },
    });
    await expect(storage.put(source)).rejects.toThrow();
    expect(files(root)).toEqual(before);
  });

  it('refuses a root that is a file, without touching it', async () => {
    const file = join(base, 'not-a-dir');
    writeFileSync(file, 'x');
    await expect(createFilesystemStorage({ root: file }).put(Readable.from([Buffer.from('y')]))).rejects.toThrow();
    expect(statSync(file).isFile()).toBe(true);
  });

  it('createStorage picks the filesystem driver', async () => {
    const picked = createStorage({ driver: 'filesystem', root });
    const stored = await picked.put(Readable.from([Buffer.from('picked')]));
    expect(await storage.exists(stored.key)).toBe(true);
  });
});
