import { listBody } from '@platform/http';
import type { ApiContext } from '@platform/service';
import type { PropertyEvents } from '../events.js';
import { propertyRepository } from '../properties/index.js';
import {
  postalCodePrefixes,
  valuate,
  type Marketing,
  type Valuation,
  type ValuationSubject,
  type ValuedComparable,
} from './method.js';
import { findCandidates } from './repository.js';
import type { ComparablesQuery, ValuationQuery, ValuationView } from './schemas.js';

export type ValuationServiceDeps = Pick<ApiContext<PropertyEvents>, 'db' | 'cursors' | 'now'>;
export type ValuationService = ReturnType<typeof createValuationService>;

/**
 * How a property is valued when the request does not say: as a letting when it has a cold rent
 * and no purchase price, otherwise as a sale (both prices, or neither: sale).
 */
export function marketingOf(
  property: { purchase_price_eur: number | null; cold_rent_eur: number | null },
  given?: Marketing,
): Marketing {
  if (given) return given;
  return property.cold_rent_eur !== null && property.purchase_price_eur === null ? 'rent' : 'sale';
}

/** Valuations of an account's properties from its own sales and lettings and its imported market data only. */
export function createValuationService({ db, cursors, now }: ValuationServiceDeps) {
  async function valuation(accountId: string, propertyId: string, query: ValuationQuery): Promise<ValuationView> {
    const property = await propertyRepository.find(db, accountId, propertyId);
    const subject: ValuationSubject = {
      type: property.type,
      marketing: marketingOf(property, query.marketing),
      postal_code: property.address_postal_code,
      living_area_sqm: property.living_area_sqm,
      year_built: property.year_built,
      as_of: now().toISOString().slice(0, 10),
    };
    // Level by level: the candidates under the subject's full postal code first, a wider prefix
    // only when the method widens beyond the one read (fewer than 5 usable there). The method
    // decides the levels up to the prefix read from those rows alone, so the result is the one
    // all candidates would give.
    const prefixes = postalCodePrefixes(subject.postal_code);
    let result: Valuation | undefined;
    for (const [i, prefix] of prefixes.entries()) {
      const candidates = await findCandidates(db, {
        accountId,
        excludeId: property.id,
        type: subject.type,
        marketing: subject.marketing,
        postalCodePrefix: prefix,
        asOf: subject.as_of,
      });
      result = valuate(subject, candidates);
      if (result.selection.postal_code_prefix.length >= prefix.length || i === prefixes.length - 1) break;
    }
    return { property_id: property.id, subject, ...result! };
  }

  return {
    valuation,

    /**
     * The valuation's comparables (those inside the selection), a page at a time, in the method's order (newest first, then by
     * id); the cursor is the (date, id) of the last one, signed for this property and marketing.
     */
    async comparables(accountId: string, propertyId: string, { limit, cursor, marketing }: ComparablesQuery) {
      const { subject, comparables } = await valuation(accountId, propertyId, { marketing });
      const scope = `comparables:${propertyId}:${subject.marketing}`;
      const after = cursor ? cursors.decode(cursor, scope) : undefined;
      const afterDate = after?.createdAt.toISOString().slice(0, 10);
      const rest = after
        ? comparables.filter((c) => c.date < afterDate! || (c.date === afterDate && c.id > after.id))
        : comparables;
      return listBody(
        rest.slice(0, limit + 1),
        limit,
        (c: ValuedComparable) => c,
        (last) => cursors.encode({ createdAt: new Date(`${last.date}T00:00:00Z`), id: last.id }, scope),
      );
    },
  };
}
