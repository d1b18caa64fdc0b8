import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '@platform/sandbox';
import { createFilesystemStorage, type BlobStorage } from '@platform/storage';
import { createJobQueue } from '@platform/service';
import { createTestDatabase, runScript, testRedis, type TestDatabase } from '@platform/testkit';
import { forgetBlobTables } from '@platform/uploads';
import {
  MAX_ABNORMAL_ENDS,
  MAX_SWEEPS,
  STUCK_AFTER_MS,
  generateDocument,
  generationJobId,
  resumeLostGenerations,
  sweepDocuments,
} from '../src/index.js';
import { bodyKind, CREATE_TABLE, TABLE } from './fixtures/kind.js';

const entry = fileURLToPath(new URL('./fixtures/render-entry.ts', import.meta.url));
const openSandbox = (options: { memoryMb?: number; timeoutMs?: number } = {}) =>
  createSandbox({ entry, processes: 2, memoryMb: options.memoryMb ?? 256, timeoutMs: options.timeoutMs ?? 20_000 });

let db: TestDatabase;
let root: string;
let storage: BlobStorage;
let sandbox: Sandbox;
beforeAll(async () => {
  db = await createTestDatabase();
  await db.prisma.$executeRawUnsafe(CREATE_TABLE);
  forgetBlobTables();
  root = await mkdtemp(join(tmpdir(), 'documents-'));
  storage = createFilesystemStorage({ root });
  sandbox = openSandbox();
});
afterAll(async () => {
  await sandbox.close();
  forgetBlobTables();
  await db.drop();
  await rm(root, { recursive: true, force: true });
});

let completions: string[];
beforeEach(() => {
  completions = [];
});
const kind = () => bodyKind(completions);

const insert = (id: string, body: string, options: { updatedAt?: Date; files?: string[] } = {}) =>
  db.prisma.$executeRawUnsafe(
    `INSERT INTO ${TABLE} (id, account_id, body, files, updated_at) VALUES ($1, 'acct', $2, $3, $4)`,
    id,
    body,
    options.files ?? [],
    options.updatedAt ?? new Date(),
  );
const row = async (id: string) =>
  (
    await db.prisma.$queryRawUnsafe<
      {
        status: string;
        sha256: string | null;
        failure_reason: string | null;
        sweeps: number;
        abnormal_ends: number;
        render_lease_until: Date | null;
      }[]
    >(
      `SELECT status::text AS status, sha256, failure_reason, sweeps, abnormal_ends, render_lease_until FROM ${TABLE} WHERE id = $1`,
      id,
    )
  )[0];
const blobCount = async () =>
  (await readdir(root, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).length;
const deps = (at = new Date(), box = sandbox) => ({ db: db.prisma, storage, sandbox: box, now: at });
const stored = async (sha256: string) => {
  const content = await storage.get(sha256);
  return content ? Buffer.concat(await content.stream.toArray()).toString('latin1') : null;
};

describe('document generation in the sandbox', () => {
  it('completes once: rendered in a child, the blob stored, the row completed, the completion hook called; a rerun does nothing', async () => {
    await insert('d1', 'one');
    expect(await generateDocument(deps(), kind(), 'd1')).toBe('completed');
    const done = await row('d1');
    expect(done).toMatchObject({ status: 'completed', render_lease_until: null, abnormal_ends: 0 });
    expect(await stored(done.sha256!)).toBe('%PDF one');
    expect(completions).toEqual(['d1']);
    expect(await generateDocument(deps(), kind(), 'd1')).toBe('skipped');
    expect(completions).toEqual(['d1']);
  });

  it('hands the renderer the stored files it names, one missing one left out', async () => {
    const file = await storage.put(Readable.from([Buffer.from('rendition bytes')]));
    const missing = 'f'.repeat(64);
    await insert('f1', `files:${file.sha256},${missing}`, { files: [file.sha256, missing] });
    expect(await generateDocument(deps(), kind(), 'f1')).toBe('completed');
    expect(await stored((await row('f1')).sha256!)).toBe(
      `%PDF ${file.sha256.slice(0, 8)}=rendition bytes ffffffff=missing`,
    );
  });

  it('a second run while one holds the document leaves it alone: one render, one completion, one blob', async () => {
    const before = await blobCount();
    await insert('d2', 'slow:400');
    const outcomes = await Promise.all([
      generateDocument(deps(), kind(), 'd2'),
      new Promise((r) => setTimeout(r, 50)).then(() => generateDocument(deps(), kind(), 'd2')),
    ]);
    expect(outcomes).toEqual(['completed', 'skipped']);
    expect(completions).toEqual(['d2']);
    expect(await blobCount()).toBe(before + 1);
  });

  it('fails a document at once when its data cannot be rendered: a refusal, an error of the renderer, an unloadable snapshot', async () => {
    await insert('r1', 'refuse:The photo is unreadable.');
    await insert('r2', 'throw:Unknown font');
    await insert('r3', 'unloadable:The snapshot is damaged.');
    for (const id of ['r1', 'r2', 'r3']) expect(await generateDocument(deps(), kind(), id)).toBe('failed');
    expect((await row('r1')).failure_reason).toBe('The photo is unreadable.');
    expect((await row('r2')).failure_reason).toBe('The document could not be rendered: Unknown font');
    expect((await row('r3')).failure_reason).toBe('The snapshot is damaged.');
    expect(completions).toEqual([]);
  });

  it('leaves an ordinary error to the queue: thrown, still generating, the lease given back for the next run', async () => {
    await insert('e1', 'dberror:');
    await expect(generateDocument(deps(), kind(), 'e1')).rejects.toThrow('storage unreachable');
    expect(await row('e1')).toMatchObject({ status: 'generating', render_lease_until: null, abnormal_ends: 0 });
  });

  it('a renderer that throws inside a zlib callback crashes its child, not this process; the second crash fails the document', async () => {
    await insert('c1', 'crash:');
    await expect(generateDocument(deps(), kind(), 'c1')).rejects.toThrow(/ended abnormally/);
    expect(await row('c1')).toMatchObject({ status: 'generating', abnormal_ends: 1, render_lease_until: null });
    expect(await generateDocument(deps(), kind(), 'c1')).toBe('failed');
    const failed = await row('c1');
    expect(failed.abnormal_ends).toBe(MAX_ABNORMAL_ENDS);
    expect(failed.failure_reason).toMatch(
      /^Rendering ended abnormally 2 times; the last time its renderer stopped with an error: .*incorrect header check/,
    );
    // this process and the sandbox go on
    await insert('c2', 'after the crash');
    expect(await generateDocument(deps(), kind(), 'c2')).toBe('completed');
  });

  it('a renderer that exhausts its memory limit or its deadline ends the same way, with the limit named', async () => {
    const small = openSandbox({ memoryMb: 200, timeoutMs: 1_000 });
    try {
      await insert('m1', 'memory:');
      await insert('h1', 'hang:');
      for (const id of ['m1', 'h1']) {
        await expect(generateDocument(deps(new Date(), small), kind(), id)).rejects.toThrow(/ended abnormally/);
        expect(await generateDocument(deps(new Date(), small), kind(), id)).toBe('failed');
      }
      expect((await row('m1')).failure_reason).toMatch(/memory limit of 200 MiB/);
      expect((await row('h1')).failure_reason).toMatch(/did not finish within 1 s/);
    } finally {
      await small.close();
    }
  });

  it('a document whose generation kills the worker itself is failed on its third take, never taken forever', async () => {
    await insert('k1', 'die:');
    const start = new Date();
    const take = (minutes: number) =>
      runScript('packages/documents/test/fixtures/die-while-rendering.ts', [
        db.url,
        root,
        'k1',
        new Date(start.getTime() + minutes * 60_000).toISOString(),
      ]);
    const first = await take(0);
    expect(first.code).not.toBe(0); // killed mid-render
    expect(await row('k1')).toMatchObject({ status: 'generating', abnormal_ends: 0 });
    expect((await take(1)).stdout).toBe('skipped'); // its lease still holds: another run may be at it
    const second = await take(STUCK_AFTER_MS / 60_000 + 1);
    expect(second.code).not.toBe(0);
    expect(await row('k1')).toMatchObject({ status: 'generating', abnormal_ends: 1 });
    const third = await take(2 * (STUCK_AFTER_MS / 60_000 + 1));
    expect(third).toMatchObject({ code: 0, stdout: 'failed' });
    expect(await row('k1')).toMatchObject({
      status: 'failed',
      abnormal_ends: 2,
      failure_reason: expect.stringMatching(/ended its worker abnormally 2 times/),
    });
  }, 120_000); // four worker processes started one after another, each compiling its TypeScript

  it('the sweeper enqueues documents stuck in generating again, each sweep under a new number, and fails them after the last', async () => {
    const now = new Date();
    const old = new Date(now.getTime() - STUCK_AFTER_MS - 1000);
    await insert('s1', 'stuck', { updatedAt: old });
    await insert('s2', 'fresh', { updatedAt: now });
    const enqueued: string[] = [];
    const sweep = (at: Date) =>
      sweepDocuments({ db: db.prisma, now: at }, kind(), async (id, n) => void enqueued.push(`${id}#${n}`));
    expect((await sweep(now)).retried).toBeGreaterThanOrEqual(1);
    expect(enqueued.filter((e) => e.startsWith('s'))).toEqual(['s1#1']);
    enqueued.length = 0;
    expect(await sweep(now)).toEqual({ retried: 0, failed: 0 }); // just swept: not stuck again yet
    let at = now;
    for (let n = 2; n <= MAX_SWEEPS; n++) {
      at = new Date(at.getTime() + STUCK_AFTER_MS + 1000);
      await sweep(at);
    }
    expect(enqueued.filter((e) => e.startsWith('s1'))).toEqual(
      Array.from({ length: MAX_SWEEPS - 1 }, (_, i) => `s1#${i + 2}`),
    );
    at = new Date(at.getTime() + STUCK_AFTER_MS + 1000);
    const last = await sweep(at);
    expect(last.failed).toBeGreaterThanOrEqual(1);
    expect(await row('s1')).toMatchObject({
      status: 'failed',
      failure_reason: expect.stringContaining('did not finish'),
    });
  });

  it('enqueues again at once a generating document whose job the queue does not know (a restore, a lost Redis), its dead lease given back', async () => {
    const redis = testRedis();
    const queue = createJobQueue(redis.connection, redis.prefix);
    try {
      await insert('lost-leased', 'rendering when the backup was taken');
      await db.prisma.$executeRawUnsafe(
        `UPDATE ${TABLE} SET render_lease_until = now() + interval '10 minutes' WHERE id = 'lost-leased'`,
      );
      await insert('lost-queued', 'queued when the backup was taken');
      await insert('still-queued', 'its job is waiting');
      const job = { name: 'generate-test', retry: { attempts: 1, backoffMs: 0 } };
      await queue.enqueue(job, {}, generationJobId('still-queued'));
      const enqueued: string[] = [];
      const resume = () =>
        resumeLostGenerations({ db: db.prisma }, kind(), queue.state, async (id, n) => {
          enqueued.push(`${id}#${n}`);
          await queue.enqueue(job, {}, generationJobId(id, n));
        });
      await resume();
      expect(enqueued.filter((e) => e.includes('queued') || e.includes('leased')).sort()).toEqual([
        'lost-leased#0',
        'lost-queued#0',
      ]);
      expect((await row('lost-leased')).render_lease_until).toBeNull();
      // Their jobs are in the queue now: the next sweep leaves them alone.
      enqueued.length = 0;
      await resume();
      expect(enqueued.filter((e) => e.includes('queued') || e.includes('leased'))).toEqual([]);
    } finally {
      await queue.queue.obliterate({ force: true });
      await queue.close();
    }
  });
});
