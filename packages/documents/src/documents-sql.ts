import type { Db } from '@platform/db';

// The columns every document table has (listings, catalog entries, invoices): id, account_id, status
// (DocumentStatus), sha256, size, failure_reason, sweeps, render_lease_until, abnormal_ends,
// updated_at, completed_at, published_at.

/** A document table's name, checked once: it is written into SQL. */
export function documentTable(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Not a table name: ${name}`);
  return name;
}

export interface DocumentRow {
  id: string;
  account_id: string;
  status: string;
}

export async function findDocument(db: Db, table: string, id: string): Promise<DocumentRow | null> {
  const rows = await db.$queryRawUnsafe<DocumentRow[]>(
    `SELECT id, account_id, status::text AS status FROM "${table}" WHERE id = $1`,
    id,
  );
  return rows[0] ?? null;
}

/**
 * A run takes the document: it must be `generating` and not held by another run (no lease, or one
 * that has run out). A lease still set when it ran out means the run that set it ended its worker
 * abnormally (the process stopped mid-render): that is counted. Returns the count, or null when
 * the run must leave the document alone.
 */
export async function claimRender(
  db: Db,
  table: string,
  id: string,
  at: Date,
  leaseUntil: Date,
): Promise<{ abnormalEnds: number } | null> {
  const rows = await db.$queryRawUnsafe<{ abnormal_ends: number }[]>(
    `UPDATE "${table}" SET abnormal_ends = abnormal_ends + CASE WHEN render_lease_until IS NULL THEN 0 ELSE 1 END,
       render_lease_until = $3, updated_at = $2
     WHERE id = $1 AND status = 'generating' AND (render_lease_until IS NULL OR render_lease_until <= $2)
     RETURNING abnormal_ends`,
    id,
    at,
    leaseUntil,
  );
  return rows[0] ? { abnormalEnds: rows[0].abnormal_ends } : null;
}

/** The run ended its renderer abnormally (crash, memory, deadline), but is still there to say so: counted, lease given back. */
export async function recordAbnormalEnd(db: Db, table: string, id: string): Promise<number> {
  const rows = await db.$queryRawUnsafe<{ abnormal_ends: number }[]>(
    `UPDATE "${table}" SET abnormal_ends = abnormal_ends + 1, render_lease_until = NULL WHERE id = $1 RETURNING abnormal_ends`,
    id,
  );
  return rows[0]?.abnormal_ends ?? 0;
}

/** The run gives the document back without an outcome (an error the queue retries). */
export async function releaseRender(db: Db, table: string, id: string): Promise<void> {
  await db.$executeRawUnsafe(`UPDATE "${table}" SET render_lease_until = NULL WHERE id = $1`, id);
}

/** `generating` → `completed` with the PDF; false when another run got there first (or it failed meanwhile). */
export async function markCompleted(
  tx: Db,
  table: string,
  id: string,
  pdf: { sha256: string; size: number },
  at: Date,
): Promise<boolean> {
  const updated = await tx.$executeRawUnsafe(
    `UPDATE "${table}" SET status = 'completed', sha256 = $2, size = $3, failure_reason = NULL, render_lease_until = NULL, completed_at = $4, updated_at = $4
     WHERE id = $1 AND status = 'generating'`,
    id,
    pdf.sha256,
    pdf.size,
    at,
  );
  return updated === 1;
}

/** `generating` → `failed` with the reason; false when it is no longer generating. */
export async function markFailed(db: Db, table: string, id: string, reason: string, at: Date): Promise<boolean> {
  const updated = await db.$executeRawUnsafe(
    `UPDATE "${table}" SET status = 'failed', failure_reason = $2, render_lease_until = NULL, updated_at = $3 WHERE id = $1 AND status = 'generating'`,
    id,
    reason,
    at,
  );
  return updated === 1;
}

/**
 * Documents left in `generating` since before `cutoff`: those swept `maxSweeps` times already
 * fail; the others are counted and returned with their new sweep number, to be enqueued again.
 */
export async function sweepStuck(db: Db, table: string, cutoff: Date, at: Date, maxSweeps: number, reason: string) {
  const failed = await db.$queryRawUnsafe<{ id: string }[]>(
    `UPDATE "${table}" SET status = 'failed', failure_reason = $4, updated_at = $2
     WHERE status = 'generating' AND updated_at < $1 AND sweeps >= $3 RETURNING id`,
    cutoff,
    at,
    maxSweeps,
    reason,
  );
  const retried = await db.$queryRawUnsafe<{ id: string; sweeps: number }[]>(
    `UPDATE "${table}" SET sweeps = sweeps + 1, updated_at = $2
     WHERE status = 'generating' AND updated_at < $1 RETURNING id, sweeps`,
    cutoff,
    at,
  );
  return { failed: failed.map((row) => row.id), retried };
}

/** Documents in `generating` with their sweep number (their job id), oldest first, at most `limit`. */
export async function generatingDocuments(db: Db, table: string, limit: number) {
  return db.$queryRawUnsafe<{ id: string; sweeps: number }[]>(
    `SELECT id, sweeps FROM "${table}" WHERE status = 'generating' ORDER BY updated_at LIMIT $1`,
    limit,
  );
}

/**
 * Gives back the lease of a document whose job is gone from the queue (a restore, a lost Redis):
 * no run holds it any more. Not an abnormal end: the document did nothing wrong.
 */
export async function dropOrphanedLease(db: Db, table: string, id: string, sweeps: number): Promise<boolean> {
  const updated = await db.$executeRawUnsafe(
    `UPDATE "${table}" SET render_lease_until = NULL WHERE id = $1 AND status = 'generating' AND sweeps = $2`,
    id,
    sweeps,
  );
  return updated === 1;
}

/** Into `published` (live somewhere); the first publication time is kept. */
export async function markPublished(tx: Db, table: string, id: string, at: Date): Promise<void> {
  await tx.$executeRawUnsafe(
    `UPDATE "${table}" SET status = 'published', published_at = COALESCE(published_at, $2), updated_at = $2 WHERE id = $1`,
    id,
    at,
  );
}

/** Out of `published` (live nowhere any more). */
export async function markWithdrawn(tx: Db, table: string, id: string, at: Date): Promise<void> {
  await tx.$executeRawUnsafe(
    `UPDATE "${table}" SET status = 'withdrawn', updated_at = $2 WHERE id = $1 AND status = 'published'`,
    id,
    at,
  );
}
