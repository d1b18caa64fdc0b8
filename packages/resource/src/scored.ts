import type { Db, Prisma } from '@platform/db';
import { BEST_FIRST, scoredCursorPage, type ScoredCursorCodec } from '@platform/http';
import { scopeOf, type TenantRepository } from './repository.js';

/** How a scoring model's explanation gives the stored total and weights version. */
export interface ScoreReading<E> {
  total: (explanation: E) => number;
  version: (explanation: E) => string;
}

/** The stored score of a record: total and version for ordering, the whole explanation, and when. */
export interface ScoreColumns {
  score: number;
  weights_version: string;
  score_details: Prisma.InputJsonValue;
  scored_at: Date;
}

export function scoreColumns<E>(explanation: E, reading: ScoreReading<E>, at: Date): ScoreColumns {
  return {
    score: reading.total(explanation),
    weights_version: reading.version(explanation),
    score_details: explanation as unknown as Prisma.InputJsonValue,
    scored_at: at,
  };
}

type ScoredRow = { id: string; created_at: Date; score: number };

/** Best score first (then newest); the cursor carries the score and is bound to list, account and filters. */
export function scoredPage<Row extends ScoredRow, Columns, Item>(
  db: Db,
  repository: TenantRepository<Row, Columns>,
  accountId: string,
  request: {
    cursors: ScoredCursorCodec;
    cursor?: string;
    limit: number;
    filters?: Record<string, unknown>;
    map: (row: Row) => Item;
  },
) {
  const filters = request.filters ?? {};
  return scoredCursorPage({
    cursors: request.cursors,
    scope: scopeOf(repository.list, accountId, filters),
    cursor: request.cursor,
    limit: request.limit,
    fetch: (after, take) =>
      repository
        .model(db)
        .findMany({ where: { account_id: accountId, ...filters, ...after }, orderBy: BEST_FIRST, take }),
    map: request.map,
  });
}

/**
 * Scores a record again under a row lock, with its subject as it is now (`load`), stores the new
 * score and announces it in the same transaction.
 */
export async function rescoreUnderLock<Row extends ScoredRow, Loaded, E>(
  tx: Db,
  repository: TenantRepository<Row, ScoreColumns>,
  request: {
    accountId: string;
    id: string;
    load: (tx: Db, id: string) => Promise<Loaded>;
    explain: (subject: Loaded) => E;
    reading: ScoreReading<E>;
    at: Date;
    announce: (row: Row) => Promise<unknown>;
  },
): Promise<Row> {
  await repository.hold(tx, request.accountId, request.id); // `load` reads the row with what it needs
  const explanation = request.explain(await request.load(tx, request.id));
  const row = await repository
    .model(tx)
    .update({ where: { id: request.id }, data: scoreColumns(explanation, request.reading, request.at) });
  await request.announce(row);
  return row;
}
