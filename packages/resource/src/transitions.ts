import type { Db } from '@platform/db';
import { ApiError } from '@platform/http';

export interface Transition<S extends string> {
  from: readonly S[];
  to: S;
  /** First sentence of the action's description in the OpenAPI document. */
  summary: string;
}

/** Status actions of a resource (`POST /<resource>/{id}/<action>`): one table drives routes, 409s and docs. */
export type TransitionTable<S extends string> = Record<string, Transition<S>>;

export function canTransition<S extends string>(table: TransitionTable<S>, action: string, from: S): boolean {
  return table[action].from.includes(from);
}

/** The part of a Prisma model delegate a status change uses. */
export interface StatusModel<Row, S extends string> {
  updateMany(args: {
    where: { id: string; account_id: string; status: { in: S[] } };
    data: { status: S; updated_at: Date };
  }): PromiseLike<{ count: number }>;
  findFirst(args: { where: { id: string; account_id: string } }): PromiseLike<Row | null>;
}

/** A resource's status actions, declared once with the resource. */
export interface TransitionDefinition<Row, S extends string> {
  model: (db: Db) => StatusModel<Row, S>;
  table: TransitionTable<S>;
  /** How the 409 names the record: `a property`, `an agent`. */
  noun: string;
  notFound: () => ApiError;
  /** Further columns set with the new status (`retired_at`). */
  also?: (to: S, at: Date) => Record<string, unknown>;
}

export interface TransitionRequest<Row, S extends string> {
  action: string;
  accountId: string;
  id: string;
  at: Date;
  /** Runs in the transaction when the status did change (the event). */
  onChanged?: (row: Row, to: S) => Promise<unknown>;
}

/**
 * Applies an action of the table in one conditional UPDATE (a concurrent change cannot slip in
 * between check and write); an action not allowed from the current status is 409
 * `invalid_transition`. Returns the row as it is afterwards.
 */
export async function applyTransition<Row extends { status: S }, S extends string>(
  tx: Db,
  request: TransitionDefinition<Row, S> & TransitionRequest<Row, S>,
): Promise<Row> {
  const model = request.model(tx);
  const { from, to } = request.table[request.action];
  const result = await model.updateMany({
    where: { id: request.id, account_id: request.accountId, status: { in: [...from] } },
    data: { status: to, updated_at: request.at, ...request.also?.(to, request.at) },
  });
  const row = await model.findFirst({ where: { id: request.id, account_id: request.accountId } });
  if (!row) throw request.notFound();
  if (result.count === 0 && !canTransition(request.table, request.action, row.status)) {
    throw new ApiError('invalid_transition', {
      message: `Cannot ${request.action.replace('-', ' ')} ${request.noun} in status ${row.status}; allowed from: ${from.join(', ')}.`,
      details: [{ field: 'status', reason: 'not_allowed' }],
    });
  }
  if (result.count === 1) await request.onChanged?.(row, to);
  return row;
}

/** Binds a resource's transition definition once: `transitionProperty(tx, { accountId, id, action, at, onChanged })`. */
export function defineTransitions<Row extends { status: S }, S extends string>(
  definition: TransitionDefinition<Row, S>,
): (tx: Db, request: TransitionRequest<Row, S>) => Promise<Row> {
  return (tx, request) => applyTransition(tx, { ...definition, ...request });
}
