import type { PropertyStatus } from '@platform/db';
import type { PropertyRow } from './repository.js';

/**
 * A property offered anew, for outreach: it went to `active`, an asking price (purchase price,
 * cold rent) was lowered while active, or one was set for the first time while active.
 */
export interface OfferImproved {
  accountId: string;
  propertyId: string;
  kind: OfferChange;
  at: Date;
}

export type OfferChange = 'activated' | 'price_lowered' | 'price_set';

const PRICES = ['purchase_price_eur', 'cold_rent_eur'] as const;

/**
 * How a patch of an active property changed its offer: a price lowered, or a price given where
 * there was none (a new price is an offer change that matters); nothing otherwise (raised, removed).
 */
export function offerChangeOfPatch(before: PropertyRow, after: PropertyRow): OfferChange | undefined {
  if (after.status !== 'active') return undefined;
  const lowered = PRICES.some((c) => before[c] !== null && after[c] !== null && after[c] < before[c]);
  if (lowered) return 'price_lowered';
  return PRICES.some((c) => before[c] === null && after[c] !== null) ? 'price_set' : undefined;
}

/** How a status change changed the offer: going to `active` (from any state) offers it anew. */
export const offerChangeOfStatus = (to: PropertyStatus): OfferChange | undefined =>
  to === 'active' ? 'activated' : undefined;
