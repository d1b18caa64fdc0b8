import type { Db, PropertyType } from '@platform/db';
import { POSTAL_CODE_PREFIX_LENGTHS, lookbackStart, type ComparableInput, type Marketing } from './method.js';

export interface CandidateFilter {
  accountId: string;
  /** The subject itself is never its own comparable. */
  excludeId: string;
  type: PropertyType;
  marketing: Marketing;
  postalCode: string;
  asOf: string;
}

const day = (value: string) => new Date(`${value}T00:00:00Z`);
const fromDay = (value: Date) => value.toISOString().slice(0, 10);

/**
 * The candidates of one account, pre-filtered in SQL by what no selection level can widen beyond:
 * type, marketing, the widest postal-code prefix (2 digits) and the look-back window. Own sales
 * and lettings are the account's properties in status `sold` (sale) or `rented` (rent) with a
 * recorded transaction price; imported ones its `market_transactions`. Only this account's rows.
 */
export async function findCandidates(db: Db, filter: CandidateFilter): Promise<ComparableInput[]> {
  const prefix = filter.postalCode.slice(0, Math.min(...POSTAL_CODE_PREFIX_LENGTHS));
  const window = { gte: day(lookbackStart(filter.asOf)), lte: day(filter.asOf) };
  const [own, imported] = await Promise.all([
    db.property.findMany({
      where: {
        account_id: filter.accountId,
        id: { not: filter.excludeId },
        type: filter.type,
        status: filter.marketing === 'sale' ? 'sold' : 'rented',
        address_postal_code: { startsWith: prefix },
        transaction_price_eur: { not: null },
        transaction_date: window,
        living_area_sqm: { not: null },
      },
      select: { id: true, type: true, address_postal_code: true, living_area_sqm: true, year_built: true, transaction_price_eur: true, transaction_date: true },
    }),
    db.marketTransaction.findMany({
      where: { account_id: filter.accountId, type: filter.type, marketing: filter.marketing, postal_code: { startsWith: prefix }, date: window },
      select: { id: true, type: true, postal_code: true, living_area_sqm: true, year_built: true, price_eur: true, date: true },
    }),
  ]);
  return [
    ...own.map((p) => ({
      id: p.id,
      type: p.type,
      marketing: filter.marketing,
      postal_code: p.address_postal_code,
      living_area_sqm: p.living_area_sqm!,
      year_built: p.year_built,
      price_eur: p.transaction_price_eur!,
      date: fromDay(p.transaction_date!),
      source: 'own' as const,
    })),
    ...imported.map((t) => ({
      id: t.id,
      type: t.type,
      marketing: filter.marketing,
      postal_code: t.postal_code,
      living_area_sqm: t.living_area_sqm,
      year_built: t.year_built,
      price_eur: t.price_eur,
      date: fromDay(t.date),
      source: 'imported' as const,
    })),
  ];
}
