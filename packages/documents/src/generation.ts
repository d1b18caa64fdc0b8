import { Readable } from 'node:stream';
import { inTransaction, type Db, type PrismaClient } from '@platform/db';
import type { BlobStorage } from '@platform/storage';
import { claimBlob, releaseBlob } from '@platform/uploads';
import { documentTable, findDocument, markCompleted, markFailed, sweepStuck, type DocumentRow } from './documents-sql.js';

/** How long a request waits for the queue before it leaves the job to the sweeper (Redis down). */
const ENQUEUE_WAIT_MS = 2_000;

/** Thrown by a renderer when the snapshot cannot become a document: the document fails at once, without retries. */
export class DocumentRenderError extends Error {}

/** One kind of generated document of an app: its table, how it is rendered and what completing it emits. */
export interface DocumentKind {
  /** The document table (columns: see documents-sql.ts). */
  table: string;
  /** Renders the document from what was copied into it; the same snapshot must give the same bytes. */
  render(db: Db, storage: BlobStorage, id: string): Promise<Buffer>;
  /** Inside the completing transaction: the `*.completed` event. */
  completed(tx: Db, document: DocumentRow, at: Date): Promise<void>;
}

export interface GenerationDeps {
  db: PrismaClient;
  storage: BlobStorage;
  now: Date;
}

export type GenerationOutcome = 'completed' | 'failed' | 'skipped';

/**
 * The job's work: render, store (content-addressed), then `generating` → `completed` and the event
 * in one transaction. Idempotent: a rerun (queue retry, crashed worker, sweeper) of a finished
 * document does nothing, and two runs at once render the same bytes, so one blob and one event.
 */
export async function generateDocument({ db, storage, now }: GenerationDeps, kind: DocumentKind, id: string): Promise<GenerationOutcome> {
  const table = documentTable(kind.table);
  const document = await findDocument(db, table, id);
  if (!document || document.status !== 'generating') return 'skipped';
  let pdf: Buffer;
  try {
    pdf = await kind.render(db, storage, id);
  } catch (error) {
    if (!(error instanceof DocumentRenderError)) throw error; // the queue retries
    await markFailed(db, table, id, error.message, now);
    return 'failed';
  }
  const stored = await storage.put(Readable.from([pdf]));
  return inTransaction(db, async (tx) => {
    await claimBlob(tx, storage, stored.key);
    if (!(await markCompleted(tx, table, id, stored, now))) {
      await releaseBlob(tx, storage, stored.key);
      return 'skipped';
    }
    await kind.completed(tx, document, now);
    return 'completed';
  });
}

/** A document in `generating` longer than this is enqueued again by the sweeper. */
export const STUCK_AFTER_MS = 10 * 60_000;
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

/** The job id of a document's generation: a new one per sweep, as BullMQ keeps finished ids for a while. */
export function generationJobId(id: string, sweep = 0): string {
  return `${id}-${sweep}`;
}

/**
 * After the document's row is committed: puts its generation on the queue. When the queue cannot
 * be reached in time, the request goes on (the row is safe) and the sweeper enqueues it later.
 */
export async function requestGeneration(enqueue: () => Promise<void>, onError: (error: unknown) => void): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`The job queue did not answer within ${ENQUEUE_WAIT_MS} ms; the sweeper will enqueue the document.`)), ENQUEUE_WAIT_MS);
  });
  try {
    await Promise.race([enqueue(), timeout]);
  } catch (error) {
    onError(error);
  } finally {
    clearTimeout(timer);
  }
}
