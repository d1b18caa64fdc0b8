import { sql, type PropertyType, type Sql } from '@platform/db';

/**
 * Rows `(id, postal_code, living_area_sqm, year_built, price_eur, date, source)` of the account's own
 * closed deals for a valuation: properties `sold` (sale) or `rented` (rent) with a recorded
 * transaction price and living area, of one type, whose postal code matches `postalCodePattern`
 * (a LIKE pattern), closed in [from, asOf]; `date` as YYYY-MM-DD, `source` 'own'.
 */
export const closedDeals = (filter: {
  accountId: string;
  excludeId: string;
  type: PropertyType;
  status: 'sold' | 'rented';
  postalCodePattern: string;
  from: string;
  asOf: string;
}): Sql => sql`
    SELECT id, address_postal_code AS postal_code, living_area_sqm, year_built, transaction_price_eur AS price_eur,
           to_char(transaction_date, 'YYYY-MM-DD') AS date, 'own' AS source
      FROM properties
     WHERE account_id = ${filter.accountId} AND id <> ${filter.excludeId} AND type = ${filter.type}::"PropertyType" AND status = ${filter.status}::"PropertyStatus"
       AND address_postal_code LIKE ${filter.postalCodePattern} AND transaction_price_eur IS NOT NULL AND living_area_sqm IS NOT NULL
       AND transaction_date >= ${filter.from}::date AND transaction_date <= ${filter.asOf}::date`;
