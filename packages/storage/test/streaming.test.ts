import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { blobPath, createFilesystemStorage, TEMPORARY_DIR } from '../src/index.js';
import { GeneratedSource } from './contract.js';

const base = mkdtempSync(join(tmpdir(), 'storage-stream-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const MiB = 1024 * 1024;
const TOTAL = 200 * MiB;

/**
 * Bytes the source has produced that are not on disk yet: what the driver holds. A driver that
 * collected chunks (or ignored back-pressure) would let this grow towards the file size.
 */
class WatchedSource extends GeneratedSource {
  peakAhead = 0;
  private reads = 0;

  constructor(private readonly temporaryDir: string) {
    super(TOTAL);
  }

  override _read(): void {
    if (++this.reads % 16 === 0) {
      const [file] = readdirSync(this.temporaryDir);
      const written = file ? statSync(join(this.temporaryDir, file)).size : 0;
      this.peakAhead = Math.max(this.peakAhead, this.produced - written);
    }
    super._read();
  }
}

describe('filesystem driver streaming', () => {
  it('writes 200 MiB generated on the fly while holding at most about 1 MiB of it', async () => {
    const root = join(base, 'blobs');
    const storage = createFilesystemStorage({ root });
    // The temporary directory exists once the first write started; create it by a tiny write.
    await storage.put(new GeneratedSource(1));
    const source = new WatchedSource(join(root, TEMPORARY_DIR));
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const rssBefore = process.memoryUsage().rss;
    let peakRss = rssBefore;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 5);
    try {
      const stored = await storage.put(source);
      expect(stored.size).toBe(TOTAL);
      expect(statSync(blobPath(root, stored.key)).size).toBe(TOTAL);
    } finally {
      clearInterval(sampler);
    }
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    // Back-pressure holds: the source is never far ahead of the disk (chunks are 64 KiB).
    expect(source.peakAhead).toBeGreaterThan(0);
    expect(source.peakAhead).toBeLessThanOrEqual(MiB);
    // And the process did not grow anywhere near the file's size.
    expect(peakRss - rssBefore).toBeLessThan(50 * MiB);
  }, 120_000);
});
