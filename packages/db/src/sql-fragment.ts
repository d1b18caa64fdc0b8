import { Prisma } from './generated/prisma/client.js';

/**
 * A piece of SQL with its parameters, for an owner to hand to another folder's raw SQL: the owner's
 * table stays named in the owner's file (`FROM (${ratesOfAccount(id)}) r`).
 */
export const sql = Prisma.sql;
export type Sql = Prisma.Sql;

/** The fragments one after another, separated by `separator` (nothing at all for none). */
export const joinSql = (fragments: readonly Sql[], separator = ' '): Sql =>
  fragments.length === 0 ? Prisma.empty : Prisma.join(fragments, separator);
