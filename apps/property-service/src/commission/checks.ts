import type { Prisma } from '@platform/db';
import { validationError, type ErrorDetail } from '@platform/http';
import {
  commissionViolations,
  judgeCommission,
  type CommissionTerms,
  type CommissionViolation,
  type Marketing,
  type PropertyType,
} from './rules.js';

type PropertyRow = Prisma.PropertyGetPayload<object>;

/** The commission terms stored on a property row. */
export function commissionTermsOf(row: PropertyRow): CommissionTerms {
  return {
    buyer_percent: row.commission_buyer_percent,
    seller_percent: row.commission_seller_percent,
    engaged_by: row.commission_engaged_by,
    buyer_is_consumer: row.commission_buyer_is_consumer,
    tenant_months: row.commission_tenant_months,
    landlord_months: row.commission_landlord_months,
  };
}

/** One 422 `validation_failed` for all violations: details `{field, reason}`, the message names every rule. */
export function refuseCommission(violations: CommissionViolation[]): never {
  const seen = new Set<string>();
  const details: ErrorDetail[] = [];
  for (const v of violations) {
    const key = `${v.field}:${v.reason}`;
    if (!seen.has(key)) details.push({ field: v.field, reason: v.reason });
    seen.add(key);
  }
  throw validationError(details, [...new Set(violations.map((v) => v.message))].join(' '));
}

export interface CommissionSubject {
  type: PropertyType;
  purchase_price_eur?: number | null;
  cold_rent_eur?: number | null;
}

/**
 * The check when terms are set (create, PATCH): as a sale when the property has a purchase price,
 * as a letting when it has a cold rent, as both when it has both or neither (the deal it will be
 * marked with is not known yet). Throws the 422 only for terms unlawful whoever engaged the broker;
 * terms whose lawfulness depends on `engaged_by` (not set) are stored, and the question is asked at
 * publication (`assertCommissionPublishable`) and at mark-sold / mark-rented.
 */
export function assertCommissionAllowed(subject: CommissionSubject, terms: CommissionTerms): void {
  const sale = subject.purchase_price_eur != null;
  const letting = subject.cold_rent_eur != null;
  const marketings: Marketing[] = sale === letting ? ['sale', 'letting'] : sale ? ['sale'] : ['letting'];
  const violations = marketings
    .map((marketing) => judgeCommission(subject.type, marketing, terms))
    .flatMap((judgement) => (judgement.verdict === 'unlawful' ? judgement.violations : []));
  if (violations.length > 0) refuseCommission(violations);
}

/** A property as the API (and a listing's snapshot) shows it, as far as its commission rules go. */
export interface PublishableProperty extends CommissionSubject {
  commission?: CommissionTerms | null;
}

/**
 * The check at publication: the advert states the commission, so the terms of the listing's
 * marketing (a sale when the property has a purchase price, else a letting when it has a cold rent)
 * must be lawful as they stand. Throws the same 422 `validation_failed` as when terms are set: the
 * rule broken (`not_allowed`), or `commission.engaged_by` `missing` when their lawfulness depends on
 * who engaged the broker. No terms, or neither price: nothing to check.
 */
export function assertCommissionPublishable(property: PublishableProperty): void {
  if (!property.commission) return;
  const marketing: Marketing | null =
    property.purchase_price_eur != null ? 'sale' : property.cold_rent_eur != null ? 'letting' : null;
  if (marketing === null) return;
  const violations = commissionViolations(property.type, marketing, property.commission);
  if (violations.length > 0) refuseCommission(violations);
}
