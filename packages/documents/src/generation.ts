import { createReadStream, createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { inTransaction, type Db, type PrismaClient } from '@platform/db';
import { SandboxError, withWorkspace, type Sandbox } from '@platform/sandbox';
import type { BlobStorage, StoredBlob } from '@platform/storage';
import { claimBlob, releaseBlob } from '@platform/uploads';
import {
  claimRender,
  documentTable,
  dropOrphanedLease,
  generatingDocuments,
  findDocument,
  markCompleted,
  markFailed,
  recordAbnormalEnd,
  releaseRender,
  sweepStuck,
  type DocumentRow,
} from './documents-sql.js';
import type { RenderTask } from './render.js';

/** How long a request waits for the queue before it leaves the job to the sweeper (Redis down). */
const ENQUEUE_WAIT_MS = 2_000;

/** Thrown by `load` when the snapshot cannot become a document: the document fails at once, without retries. */
export class DocumentRenderError extends Error {}

/** What a document's renderer is given: the data to draw and the stored files (content addresses) it may draw. */
export interface RenderRequest<D> {
  data: D;
  files?: readonly string[];
}

/** One kind of generated document of an app: its table, what it shows, who draws it and what completing it emits. */
export interface DocumentKind<D = unknown> {
  /** The document table (columns: see documents-sql.ts). */
  table: string;
  /** Reads what the document shows from what was copied into it (in the worker, from the database). */
  load(db: Db, id: string): Promise<RenderRequest<D>>;
  /** Draws it in the sandbox from that alone; the same data must give the same bytes. */
  renderer: RenderTask<D>;
  /** Inside the completing transaction: the `*.completed` event. */
  completed(tx: Db, document: DocumentRow, at: Date): Promise<void>;
}

export interface GenerationDeps {
  db: PrismaClient;
  storage: BlobStorage;
  /** Where renderers run: a renderer's crash, exhausted memory or deadline ends its task, not the worker. */
  sandbox: Sandbox;
  now: Date;
}

export type GenerationOutcome = 'completed' | 'failed' | 'skipped';

/** A document in `generating` longer than this is enqueued again by the sweeper; it is also how long one run holds it. */
export const STUCK_AFTER_MS = 10 * 60_000;
/** Runs that may end their worker abnormally before the document fails instead of being taken again. */
export const MAX_ABNORMAL_ENDS = 2;

/**
 * The job's work: take the document (a lease, see `claimRender`), draw it in the sandbox, store it
 * (content-addressed), then `generating` → `completed` and the event in one transaction.
 * Idempotent: a rerun of a finished document does nothing, and a second run while one holds it
 * leaves it alone. How a run ends:
 * - `DocumentRenderError` from `load`, or a renderer's refusal or error: `failed` with the reason;
 * - the renderer's process crashed, ran out of memory or time: counted; the second such end fails the
 *   document (a first one is thrown, for the queue to try once more);
 * - the worker itself stopped mid-render: its lease is found still set by the next run and counted
 *   the same way, so a document that takes its worker down is never taken again forever;
 * - any other error (database, storage): the lease is given back and the error thrown for a retry.
 */
export async function generateDocument<D>(
  { db, storage, sandbox, now }: GenerationDeps,
  kind: DocumentKind<D>,
  id: string,
): Promise<GenerationOutcome> {
  const table = documentTable(kind.table);
  const document = await findDocument(db, table, id);
  if (!document || document.status !== 'generating') return 'skipped';
  const claim = await claimRender(db, table, id, now, new Date(now.getTime() + STUCK_AFTER_MS));
  if (!claim) return 'skipped';
  if (claim.abnormalEnds >= MAX_ABNORMAL_ENDS) {
    await markFailed(
      db,
      table,
      id,
      `Generation ended its worker abnormally ${claim.abnormalEnds} times (the process stopped while rendering); it is not tried again.`,
      now,
    );
    return 'failed';
  }
  let stored: StoredBlob;
  try {
    stored = await render({ storage, sandbox }, kind, await kind.load(db, id));
  } catch (error) {
    const outcome = await failureOf(db, table, id, error);
    if (outcome instanceof Error) {
      await releaseRender(db, table, id).catch(() => {});
      throw outcome; // the queue retries
    }
    await markFailed(db, table, id, outcome, now);
    return 'failed';
  }
  try {
    return await inTransaction(db, async (tx) => {
      await claimBlob(tx, storage, stored.key);
      if (!(await markCompleted(tx, table, id, stored, now))) {
        await releaseBlob(tx, storage, stored.key);
        return 'skipped';
      }
      await kind.completed(tx, document, now);
      return 'completed';
    });
  } catch (error) {
    // Not completed (the database, the blob gone meanwhile): the PDF goes unless another row has it, the lease is given back, the queue retries.
    await inTransaction(db, (tx) => releaseBlob(tx, storage, stored.key)).catch(() => {});
    await releaseRender(db, table, id).catch(() => {});
    throw error;
  }
}

/** The reason a failed run fails its document, or the error to throw when the run is worth trying again (an abnormal end counted first). */
async function failureOf(db: Db, table: string, id: string, error: unknown): Promise<string | Error> {
  if (error instanceof DocumentRenderError) return error.message;
  if (!(error instanceof SandboxError)) return error instanceof Error ? error : new Error(String(error));
  if (error.kind === 'refused') return error.message;
  if (error.kind === 'failed') return `The document could not be rendered: ${error.message}`;
  if (!error.abnormal) return error; // busy, closed: try later
  const ends = await recordAbnormalEnd(db, table, id);
  if (ends >= MAX_ABNORMAL_ENDS)
    return `Rendering ended abnormally ${ends} times; the last time its renderer ${error.message}.`;
  return new Error(`Rendering ended abnormally (its renderer ${error.message}); it is tried once more.`, {
    cause: error,
  });
}

/** Draws the document in the sandbox from the data and the files (each stored file put in reach of the child), then stores the PDF. */
async function render<D>(
  { storage, sandbox }: Pick<GenerationDeps, 'storage' | 'sandbox'>,
  kind: DocumentKind<D>,
  request: RenderRequest<D>,
): Promise<StoredBlob> {
  return withWorkspace(async (dir) => {
    const files: Record<string, string> = {};
    for (const sha256 of new Set(request.files ?? [])) {
      if (!(await storage.exists(sha256))) continue; // a missing file is left out of the document
      const local = storage.localPath?.(sha256);
      if (local) files[sha256] = local;
      else {
        const content = await storage.get(sha256);
        if (!content) continue;
        files[sha256] = join(dir, sha256);
        await pipeline(content.stream, createWriteStream(files[sha256], { mode: 0o600 }));
      }
    }
    const out = join(dir, 'document.pdf');
    await sandbox.run(kind.renderer, { data: request.data, files, out });
    return storage.put(createReadStream(out));
  });
}

/** How often the sweeper enqueues a stuck document again before it fails. */
export const MAX_SWEEPS = 3;

/**
 * The sweeper: documents stuck in `generating` (their job was lost: Redis down at the request,
 * a worker killed mid-render) are enqueued again under a fresh job id, or fail after `MAX_SWEEPS`.
 */
export async function sweepDocuments(
  { db, now }: Pick<GenerationDeps, 'db' | 'now'>,
  kind: Pick<DocumentKind, 'table'>,
  enqueue: (id: string, sweep: number) => Promise<void>,
): Promise<{ retried: number; failed: number }> {
  const cutoff = new Date(now.getTime() - STUCK_AFTER_MS);
  const reason = `Generation did not finish after ${MAX_SWEEPS + 1} tries.`;
  const swept = await sweepStuck(db, documentTable(kind.table), cutoff, now, MAX_SWEEPS, reason);
  for (const { id, sweeps } of swept.retried) await enqueue(id, sweeps);
  return { retried: swept.retried.length, failed: swept.failed.length };
}

/** Documents a sweep looks up in the queue at most. */
const RESUME_BATCH = 200;

/**
 * Documents in `generating` whose job the queue does not know (lost with Redis, or queued before
 * the backup a database was restored from) are enqueued again under the same job id at once,
 * instead of waiting out STUCK_AFTER_MS. A job the queue still holds (waiting, running, retrying,
 * done a moment ago) is left alone; adding the same job id twice adds it once.
 */
export async function resumeLostGenerations(
  { db }: Pick<GenerationDeps, 'db'>,
  kind: Pick<DocumentKind, 'table'>,
  stateOf: (jobId: string) => Promise<string>,
  enqueue: (id: string, sweep: number) => Promise<void>,
): Promise<number> {
  const table = documentTable(kind.table);
  let resumed = 0;
  for (const { id, sweeps } of await generatingDocuments(db, table, RESUME_BATCH)) {
    if ((await stateOf(generationJobId(id, sweeps))) !== 'unknown') continue;
    if (!(await dropOrphanedLease(db, table, id, sweeps))) continue; // finished or swept meanwhile
    await enqueue(id, sweeps);
    resumed++;
  }
  return resumed;
}

/** The job id of a document's generation: a new one per sweep, as BullMQ keeps finished ids for a while. */
export function generationJobId(id: string, sweep = 0): string {
  return `${id}-${sweep}`;
}

/**
 * After the document's row is committed: puts its generation on the queue. When the queue cannot
 * be reached in time, the request goes on (the row is safe) and the sweeper enqueues it later.
 */
export async function requestGeneration(
  enqueue: () => Promise<void>,
  onError: (error: unknown) => void,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `The job queue did not answer within ${ENQUEUE_WAIT_MS} ms; the sweeper will enqueue the document.`,
          ),
        ),
      ENQUEUE_WAIT_MS,
    );
  });
  try {
    await Promise.race([enqueue(), timeout]);
  } catch (error) {
    onError(error);
  } finally {
    clearTimeout(timer);
  }
}
