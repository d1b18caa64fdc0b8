import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '@platform/db';
import { createFilesystemStorage, type BlobStorage } from '@platform/storage';
import { createTestDatabase, type TestDatabase } from '@platform/testkit';
import { forgetBlobTables } from '@platform/uploads';
import { DocumentRenderError, MAX_SWEEPS, STUCK_AFTER_MS, generateDocument, sweepDocuments, type DocumentKind } from '../src/index.js';

// A document table of the shape the package expects, made for this test (the package knows no app table).
const TABLE = 'test_documents';

let db: TestDatabase;
let root: string;
let storage: BlobStorage;
beforeAll(async () => {
  db = await createTestDatabase();
  await db.prisma.$executeRawUnsafe(`CREATE TABLE ${TABLE} (
    id text PRIMARY KEY, account_id text NOT NULL, status "DocumentStatus" NOT NULL DEFAULT 'generating', body text NOT NULL,
    sha256 varchar(64), size int, failure_reason text, sweeps int NOT NULL DEFAULT 0,
    updated_at timestamptz NOT NULL DEFAULT now(), completed_at timestamptz, published_at timestamptz)`);
  forgetBlobTables();
  root = await mkdtemp(join(tmpdir(), 'documents-'));
  storage = createFilesystemStorage({ root });
});
afterAll(async () => {
  forgetBlobTables();
  await db.drop();
  await rm(root, { recursive: true, force: true });
});

let completions: string[];
let renders: number;
/** Set by a test: each render waits until this many renders have started (at most 5 s), so that runs overlap on a busy machine too. */
let overlap: number;
let started: () => void;
let allStarted: Promise<void>;
beforeEach(() => {
  completions = [];
  renders = 0;
  overlap = 0;
});

/** Renders the row's `body` as the "document"; `fail:` bodies cannot be rendered, `crash:` ones throw an ordinary error. */
const kind: DocumentKind = {
  table: TABLE,
  async render(d: Db, _storage, id) {
    renders++;
    if (renders === 1) allStarted = new Promise((resolve) => (started = resolve));
    if (renders >= overlap) started();
    if (overlap > 1) await Promise.race([allStarted, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    const [row] = await d.$queryRawUnsafe<{ body: string }[]>(`SELECT body FROM ${TABLE} WHERE id = $1`, id);
    if (row.body.startsWith('fail:')) throw new DocumentRenderError(row.body.slice(5));
    if (row.body.startsWith('crash:')) throw new Error('storage unreachable');
    return Buffer.from(`%PDF ${row.body}`);
  },
  async completed(_tx, document) {
    completions.push(document.id);
  },
};

const insert = (id: string, body: string, updatedAt = new Date()) =>
  db.prisma.$executeRawUnsafe(`INSERT INTO ${TABLE} (id, account_id, body, updated_at) VALUES ($1, 'acct', $2, $3)`, id, body, updatedAt);
const row = async (id: string) =>
  (await db.prisma.$queryRawUnsafe<{ status: string; sha256: string | null; failure_reason: string | null; sweeps: number }[]>(`SELECT status::text AS status, sha256, failure_reason, sweeps FROM ${TABLE} WHERE id = $1`, id))[0];
const blobCount = async () => (await readdir(root, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).length;
const deps = () => ({ db: db.prisma, storage, now: new Date() });

describe('document generation', () => {
  it('completes once: the blob stored, the row completed, the completion hook called; a rerun does nothing', async () => {
    await insert('d1', 'one');
    expect(await generateDocument(deps(), kind, 'd1')).toBe('completed');
    const done = await row('d1');
    expect(done.status).toBe('completed');
    expect(await storage.exists(done.sha256!)).toBe(true);
    expect(completions).toEqual(['d1']);
    expect(await generateDocument(deps(), kind, 'd1')).toBe('skipped');
    expect(completions).toEqual(['d1']);
  });

  it('two runs at once (a retried job beside a slow one) give one completion and one blob', async () => {
    const before = await blobCount();
    await insert('d2', 'two');
    overlap = 2;
    const outcomes = await Promise.all([generateDocument(deps(), kind, 'd2'), generateDocument(deps(), kind, 'd2')]);
    expect(renders).toBe(2);
    expect(outcomes.sort()).toEqual(['completed', 'skipped']);
    expect(completions).toEqual(['d2']);
    expect(await blobCount()).toBe(before + 1);
  });

  it('a document that cannot be rendered fails at once with the reason; an ordinary error is left to the queue to retry', async () => {
    await insert('d3', 'fail:The photo is unreadable.');
    expect(await generateDocument(deps(), kind, 'd3')).toBe('failed');
    expect(await row('d3')).toMatchObject({ status: 'failed', failure_reason: 'The photo is unreadable.', sha256: null });
    await insert('d4', 'crash:');
    await expect(generateDocument(deps(), kind, 'd4')).rejects.toThrow('storage unreachable');
    expect((await row('d4')).status).toBe('generating');
    expect(completions).toEqual([]);
  });

  it('the sweeper enqueues documents stuck in generating again, each sweep under a new number, and fails them after the last', async () => {
    const now = new Date();
    const old = new Date(now.getTime() - STUCK_AFTER_MS - 1000);
    await insert('s1', 'stuck', old);
    await insert('s2', 'fresh', now);
    const enqueued: string[] = [];
    const sweep = (at: Date) => sweepDocuments({ db: db.prisma, now: at }, kind, async (id, n) => void enqueued.push(`${id}#${n}`));
    expect(await sweep(now)).toEqual({ retried: 1, failed: 0 });
    expect(enqueued.filter((e) => e.startsWith('s'))).toEqual(['s1#1']);
    expect(await sweep(now)).toEqual({ retried: 0, failed: 0 }); // just swept: not stuck again yet
    let at = now;
    for (let n = 2; n <= MAX_SWEEPS; n++) {
      at = new Date(at.getTime() + STUCK_AFTER_MS + 1000);
      await sweep(at);
    }
    expect(enqueued.filter((e) => e.startsWith('s1'))).toEqual(Array.from({ length: MAX_SWEEPS }, (_, i) => `s1#${i + 1}`));
    at = new Date(at.getTime() + STUCK_AFTER_MS + 1000);
    const last = await sweep(at);
    expect(last.failed).toBeGreaterThanOrEqual(1);
    expect(await row('s1')).toMatchObject({ status: 'failed', failure_reason: expect.stringContaining('did not finish') });
  });
});
