import { inTransaction, type Db, type Prisma, type PropertyType } from '@platform/db';
import { closedDeals } from '../properties/index.js';
import { lookbackStart, type ComparableInput, type Marketing } from './method.js';

export interface CandidateFilter {
  accountId: string;
  /** The subject itself is never its own comparable. */
  excludeId: string;
  type: PropertyType;
  marketing: Marketing;
  /** Only candidates whose postal code starts with this (one selection level of the method). */
  postalCodePrefix: string;
  asOf: string;
}

/** The columns the method needs, as the query returns them (dates already as YYYY-MM-DD). */
interface CandidateRow {
  id: string;
  postal_code: string;
  living_area_sqm: number;
  year_built: number | null;
  price_eur: number;
  date: string;
  source: 'own' | 'imported';
}

/** `LIKE` pattern for "starts with": the prefix with `\`, `%` and `_` escaped. */
const startsWith = (prefix: string): string => `${prefix.replace(/[\\%_]/g, '\\$&')}%`;

/**
 * The candidates of one account under one postal-code prefix, pre-filtered in SQL by type,
 * marketing and the look-back window (nothing else: the method applies the area and year criteria
 * and counts what they exclude). Own sales and lettings are the account's properties in status
 * `sold` (sale) or `rented` (rent) with a recorded transaction price (asked of properties); imported
 * ones its `market_transactions`. Only this account's rows; only the columns the method reads, in one
 * round trip (`$queryRaw`: no model mapping of whole rows).
 */
export async function findCandidates(db: Db, filter: CandidateFilter): Promise<ComparableInput[]> {
  const pattern = startsWith(filter.postalCodePrefix);
  const from = lookbackStart(filter.asOf);
  const status = filter.marketing === 'sale' ? 'sold' : 'rented';
  const rows = await db.$queryRaw<CandidateRow[]>`
    SELECT id, postal_code, living_area_sqm, year_built, price_eur, to_char(date, 'YYYY-MM-DD') AS date, 'imported' AS source
      FROM market_transactions
     WHERE account_id = ${filter.accountId} AND type = ${filter.type}::"PropertyType" AND marketing = ${filter.marketing}::"TransactionMarketing"
       AND postal_code LIKE ${pattern} AND date >= ${from}::date AND date <= ${filter.asOf}::date
    UNION ALL
    ${closedDeals({ accountId: filter.accountId, excludeId: filter.excludeId, type: filter.type, status, postalCodePattern: pattern, from, asOf: filter.asOf })}`;
  return rows.map((r) => ({
    id: r.id,
    type: filter.type,
    marketing: filter.marketing,
    postal_code: r.postal_code,
    living_area_sqm: r.living_area_sqm,
    year_built: r.year_built,
    price_eur: r.price_eur,
    date: r.date,
    source: r.source,
  }));
}

/** An import's market transactions are written in batches of this many rows. */
const BATCH = 1000;

/** Stores an import's market transactions (the operator's CSV), all or nothing: one transaction, in batches. */
export async function insertMarketTransactions(db: Db, data: Prisma.MarketTransactionCreateManyInput[]): Promise<void> {
  await inTransaction(db, async (tx) => {
    for (let i = 0; i < data.length; i += BATCH)
      await tx.marketTransaction.createMany({ data: data.slice(i, i + BATCH) });
  });
}
