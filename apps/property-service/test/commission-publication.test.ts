import { ApiError } from '@platform/http';
import { describe, expect, it } from 'vitest';
import type { ListingPropertySnapshot } from '../src/listings/snapshot.js';
import { RULE_MESSAGES } from '../src/commission/rules.js';
import { assertCommissionPublishable } from '../src/commission/index.js';

type Published = Pick<ListingPropertySnapshot, 'type' | 'purchase_price_eur' | 'cold_rent_eur' | 'commission'>;
type Commission = NonNullable<Published['commission']>;

/** A listing snapshot's property as far as the commission goes: an apartment for sale at 420,000 €. */
const property = (
  commission: Partial<Commission> | null,
  over: Partial<Omit<Published, 'commission'>> = {},
): Published => ({
  type: 'apartment',
  purchase_price_eur: 420_000,
  cold_rent_eur: null,
  commission: commission && {
    buyer_percent: null,
    seller_percent: null,
    note: null,
    engaged_by: null,
    buyer_is_consumer: true,
    tenant_months: null,
    landlord_months: null,
    ...commission,
  },
  ...over,
});

/** The 422 the function throws, as the error handler would shape it; `null` when it does not throw. */
function refusal(published: Published): { code: string; message: string; details: unknown } | null {
  try {
    assertCommissionPublishable(published);
    return null;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { code: error.code, message: error.message, details: error.details };
  }
}

describe('assertCommissionPublishable: the advert states the commission, so its terms must be lawful as they stand', () => {
  it.each<[string, Published]>([
    [
      'the spec’s example: equal shares without engaged_by (lawful whoever engaged the broker)',
      property({ buyer_percent: 3.57, seller_percent: 3.57 }),
    ],
    ['the seller alone pays, without engaged_by', property({ seller_percent: 3.57 })],
    [
      'unequal shares with engaged_by seller, the buyer paying less',
      property({ buyer_percent: 2.38, seller_percent: 3.57, engaged_by: 'seller' }),
    ],
    [
      'a letting engaged by the tenant, two rents',
      property({ tenant_months: 2, engaged_by: 'buyer' }, { purchase_price_eur: null, cold_rent_eur: 1_250 }),
    ],
    ['a commercial sale with any shares', property({ buyer_percent: 6 }, { type: 'commercial' })],
    ['no commission terms', property(null)],
    ['neither a purchase price nor a cold rent', property({ buyer_percent: 3.57 }, { purchase_price_eur: null })],
  ])('publishes %s', (_name, published) => {
    expect(refusal(published)).toBeNull();
  });

  it.each<[string, Published, string]>([
    [
      '§656c/§656d BGB: the buyer pays more, nobody said who engaged the broker',
      property({ buyer_percent: 3.57, seller_percent: 2.38 }),
      RULE_MESSAGES.engagedByMissing,
    ],
    [
      '§656c/§656d BGB: the buyer alone pays, nobody said who engaged the broker',
      property({ buyer_percent: 3.57 }),
      RULE_MESSAGES.engagedByMissing,
    ],
    [
      '§2 Abs. 1a WoVermittG: the tenant pays, nobody said who engaged the broker',
      property({ tenant_months: 1 }, { purchase_price_eur: null, cold_rent_eur: 900 }),
      RULE_MESSAGES.tenantOrdered,
    ],
  ])('asks who engaged the broker (422 commission.engaged_by missing): %s', (_name, published, message) => {
    expect(refusal(published)).toEqual({
      code: 'validation_failed',
      message,
      details: [{ field: 'commission.engaged_by', reason: 'missing' }],
    });
  });

  it.each<[string, Published, string, string]>([
    [
      '§656c BGB: unequal shares though both engaged',
      property({ buyer_percent: 3, seller_percent: 2, engaged_by: 'both' }),
      'commission.buyer_percent',
      RULE_MESSAGES.equalShares,
    ],
    [
      '§656d BGB: the buyer pays more than the engaging seller',
      property({ buyer_percent: 3, seller_percent: 2, engaged_by: 'seller' }),
      'commission.buyer_percent',
      RULE_MESSAGES.buyerAtMostSeller,
    ],
    [
      '§3 Abs. 2 WoVermittG: three rents from the tenant',
      property({ tenant_months: 3, engaged_by: 'buyer' }, { purchase_price_eur: null, cold_rent_eur: 900 }),
      'commission.tenant_months',
      RULE_MESSAGES.tenantCap,
    ],
  ])('refuses a definite violation: %s', (_name, published, field, message) => {
    expect(refusal(published)).toEqual({
      code: 'validation_failed',
      message,
      details: [{ field, reason: 'not_allowed' }],
    });
  });

  it('checks only the listing’s marketing: a sale when the property has a purchase price (a tenant share without engaged_by is not its question)', () => {
    const both = property({ seller_percent: 3.57, tenant_months: 2 }, { cold_rent_eur: 1_250 });
    expect(refusal(both)).toBeNull();
    expect(refusal({ ...both, purchase_price_eur: null })).toMatchObject({
      details: [{ field: 'commission.engaged_by', reason: 'missing' }],
    });
  });
});
