import type { Settlement } from './schemas.js';
import type { SettlementRow } from './repository.js';

const cents = (value: bigint) => Number(value);
type Party = Settlement['lines'][number]['party'];
type Regime = Settlement['regime'];

/** A settlement's invoice documents as invoices/ lists them: each party's invoice and the credit note correcting it. */
export interface SettlementDocument {
  id: string;
  party: string;
  type_code: string;
  corrects_invoice_id: string | null;
}

/** The API representation: every amount an integer number of cents, every line in its position. */
export function toSettlement(row: SettlementRow, documents: readonly SettlementDocument[]): Settlement {
  const invoiceOf = (party: string) => documents.find((d) => d.party === party && d.corrects_invoice_id === null);
  const creditNoteOf = (invoiceId: string | undefined) =>
    invoiceId ? documents.find((d) => d.corrects_invoice_id === invoiceId) : undefined;
  return {
    id: row.id,
    property_id: row.property_id,
    kind: row.kind,
    rules_version: row.rules_version,
    regime: row.regime as Regime,
    transaction_date: row.transaction_date.toISOString().slice(0, 10),
    net_cents: cents(row.net_cents),
    vat_cents: cents(row.vat_cents),
    gross_cents: cents(row.gross_cents),
    lines: row.lines.map((line) => ({
      position: line.position,
      party: line.party as Party,
      base_cents: cents(line.base_cents),
      percent_milli: line.percent_milli,
      months_hundredths: line.months_hundredths,
      net_cents: cents(line.net_cents),
      vat_rate_basis_points: line.vat_rate_bp,
      vat_cents: cents(line.vat_cents),
      gross_cents: cents(line.gross_cents),
      due_after_party: line.due_after_party as Party | null,
      invoice_id: invoiceOf(line.party)?.id ?? null,
      credit_note_id: creditNoteOf(invoiceOf(line.party)?.id)?.id ?? null,
    })),
    created_at: row.created_at.toISOString(),
  };
}
