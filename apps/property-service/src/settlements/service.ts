import { newId, type Db, type PropertyStatus } from '@platform/db';
import { validationError } from '@platform/http';
import type { ApiContext } from '@platform/service';
import type { PropertyEvents } from '../events.js';
import { commissionTermsOf, refuseCommission, settleCommission, type Marketing } from '../commission/index.js';
import { invoiceRepository, issueInvoices, type InvoiceRecipients } from '../invoices/index.js';
import { propertyRepository } from '../properties/index.js';
import { toSettlement } from './mapping.js';
import { settlementRepository, type SettlementRow } from './repository.js';
import type { Settlement, SettlementListQuery } from './schemas.js';

export type SettlementServiceDeps = Pick<ApiContext<PropertyEvents>, 'db' | 'cursors' | 'emit'>;

const day = (value: string) => new Date(`${value}T00:00:00Z`);
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/** Commission settlements of one account at a time; created only by a property's sale or letting. */
export function createSettlementService({ db, cursors, emit }: SettlementServiceDeps) {
  /** The views of rows with their invoices and credit notes (asked of invoices/, one query for all). */
  const views = async (rows: SettlementRow[]) => {
    const documents = await invoiceRepository.ofSettlements(
      db,
      rows.map((row) => row.id),
    );
    return rows.map((row) =>
      toSettlement(
        row,
        documents.filter((d) => d.settlement_id === row.id),
      ),
    );
  };
  return {
    async get(accountId: string, id: string): Promise<Settlement> {
      return (await views([await settlementRepository.find(db, accountId, id)]))[0];
    },

    async list(accountId: string, { property_id, limit, cursor }: SettlementListQuery & { limit: number }) {
      const page = await settlementRepository.page(db, accountId, {
        cursors,
        cursor,
        limit,
        filters: { property_id },
        map: (row: SettlementRow) => row,
      });
      return { ...page, data: await views(page.data) };
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
      if (!result.ok) refuseCommission(result.violations);
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
      const settlement = toSettlement(
        row,
        invoices.map((invoice) => ({ ...invoice, type_code: '380', corrects_invoice_id: null })),
      );
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
