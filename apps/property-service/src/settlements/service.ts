import { newId, type Db, type Prisma, type PropertyStatus } from '@platform/db';
import { validationError, type ErrorDetail } from '@platform/http';
import type { ApiContext } from '@platform/service';
import type { PropertyEvents } from '../events.js';
import {
  commissionViolations,
  judgeCommission,
  settleCommission,
  type CommissionTerms,
  type CommissionViolation,
  type Marketing,
  type PropertyType,
} from './commission-rules.js';
import { issueInvoices, type InvoiceRecipients } from '../invoices/index.js';
import { propertyRepository } from '../properties/index.js';
import { toSettlement } from './mapping.js';
import { settlementRepository } from './repository.js';
import type { Settlement, SettlementListQuery } from './schemas.js';

export type SettlementServiceDeps = Pick<ApiContext<PropertyEvents>, 'db' | 'cursors' | 'emit'>;

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
function refuse(violations: CommissionViolation[]): never {
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
  if (violations.length > 0) refuse(violations);
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
  if (violations.length > 0) refuse(violations);
}

const day = (value: string) => new Date(`${value}T00:00:00Z`);
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/** Commission settlements of one account at a time; created only by a property's sale or letting. */
export function createSettlementService({ db, cursors, emit }: SettlementServiceDeps) {
  return {
    async get(accountId: string, id: string): Promise<Settlement> {
      return toSettlement(await settlementRepository.find(db, accountId, id));
    },

    list(accountId: string, { property_id, limit, cursor }: SettlementListQuery & { limit: number }) {
      return settlementRepository.page(db, accountId, {
        cursors,
        cursor,
        limit,
        filters: { property_id },
        map: toSettlement,
      });
    },

    /**
     * In the transaction of a status change to `sold` or `rented`, after the transaction price and
     * day were recorded: settles the commission on them (the rules checked again: a violation, or
     * terms whose lawfulness depends on an `engaged_by` not set, is the 422 and the status change
     * rolls back) and emits `settlement.created`. No terms, rates all 0
     * or no recorded price: no settlement.
     */
    async settleStatusChange(
      tx: Db,
      accountId: string,
      propertyId: string,
      to: PropertyStatus,
      at: Date,
      recipients?: InvoiceRecipients,
    ): Promise<(Settlement & { invoice_ids: string[] }) | null> {
      if (to !== 'sold' && to !== 'rented') return null;
      const unsettled = () => {
        if (recipients && Object.keys(recipients).length > 0) {
          throw validationError(
            [{ field: 'invoice_recipients', reason: 'not_allowed' }],
            'No commission is settled for this property (no terms or no price), so there is nothing to invoice.',
          );
        }
        return null;
      };
      const property = await propertyRepository.get(tx, propertyId);
      if (property.transaction_price_eur === null || property.transaction_date === null) return unsettled();
      const kind: Marketing = to === 'sold' ? 'sale' : 'letting';
      const date = property.transaction_date.toISOString().slice(0, 10);
      const result = settleCommission({
        property_type: property.type,
        marketing: kind,
        price_eur: property.transaction_price_eur,
        date,
        terms: commissionTermsOf(property),
      });
      if (!result.ok) refuse(result.violations);
      if (result.lines.length === 0) return unsettled();

      const id = newId('stl', at.getTime());
      const lines = result.lines.map((line, index) => ({
        id: `${id}_${index + 1}`,
        position: index + 1,
        party: line.party,
        base_cents: BigInt(line.base_cents),
        percent_milli: line.percent_milli,
        months_hundredths: line.months_hundredths,
        net_cents: BigInt(line.net_cents),
        vat_rate_bp: line.vat_rate_basis_points,
        vat_cents: BigInt(line.vat_cents),
        gross_cents: BigInt(line.gross_cents),
        due_after_party: line.due_after,
      }));
      const totals = {
        net_cents: sum(result.lines.map((line) => line.net_cents)),
        vat_cents: sum(result.lines.map((line) => line.vat_cents)),
        gross_cents: sum(result.lines.map((line) => line.gross_cents)),
      };
      const row = await settlementRepository.insert(tx, {
        id,
        account_id: accountId,
        property_id: propertyId,
        kind,
        rules_version: result.version,
        regime: result.regime,
        transaction_date: day(date),
        net_cents: BigInt(totals.net_cents),
        vat_cents: BigInt(totals.vat_cents),
        gross_cents: BigInt(totals.gross_cents),
        created_at: at,
        lines: { create: lines },
      });
      const invoices = await issueInvoices(tx, row, property, recipients, at);
      const settlement = toSettlement({ ...row, invoices });
      await emit(tx, {
        accountId,
        type: 'settlement.created',
        data: {
          settlement_id: id,
          property_id: propertyId,
          kind,
          ...totals,
          lines: settlement.lines.map(({ party, net_cents, vat_cents, gross_cents, due_after_party, invoice_id }) => ({
            party,
            net_cents,
            vat_cents,
            gross_cents,
            due_after_party,
            invoice_id,
          })),
        },
        at,
      });
      return { ...settlement, invoice_ids: invoices.map((invoice) => invoice.id) };
    },
  };
}

export type SettlementService = ReturnType<typeof createSettlementService>;
