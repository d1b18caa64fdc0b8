import type { InvoiceDocumentData, InvoiceParty, InvoicePayment } from '@platform/billing';
import type { Prisma } from '@platform/db';
import type { Invoice } from './schemas.js';

export type InvoiceRow = Prisma.InvoiceGetPayload<object>;

/** UNTDID 1001 type codes of the rows. */
export const INVOICE = '380';
export const CREDIT_NOTE = '381';

/** The JSON columns, as `issueInvoices` wrote them. */
interface Stored {
  issuer: { party: InvoiceParty; payment: InvoicePayment | null };
  /** With BT-10 as the recipient gave it (a public buyer's Leitweg-ID, or the agreed reference). */
  recipient: InvoiceParty & { buyer_reference?: string | null };
  line: { description: string; notes: string[] };
}
const stored = (row: Pick<InvoiceRow, 'issuer' | 'recipient' | 'line'>) => row as unknown as Stored;
/** A `@db.Date` column as `YYYY-MM-DD`. */
export const isoDay = (value: Date) => value.toISOString().slice(0, 10);
const party = ({ name, street, postal_code, city, country, vat_id, tax_number }: InvoiceParty) => ({
  name,
  street,
  postal_code,
  city,
  country,
  vat_id: vat_id ?? null,
  tax_number: tax_number ?? null,
});

/** The API view; `creditNoteId`: the credit note correcting this invoice, when there is one. */
export function toInvoice(row: InvoiceRow, publicBaseUrl: string, creditNoteId: string | null = null): Invoice {
  const { issuer, recipient, line } = stored(row);
  return {
    id: row.id,
    type: row.type_code === CREDIT_NOTE ? 'credit_note' : 'invoice',
    number: row.number,
    corrects_invoice_id: row.corrects_invoice_id,
    credit_note_id: creditNoteId,
    settlement_id: row.settlement_id,
    property_id: row.property_id,
    party: row.party as Invoice['party'],
    state: row.state,
    issue_date: isoDay(row.issue_date),
    service_date: isoDay(row.service_date),
    due_date: row.due_date ? isoDay(row.due_date) : null,
    due_after_invoice_id: row.due_after_invoice_id,
    paid_on: row.paid_on ? isoDay(row.paid_on) : null,
    issuer: party(issuer.party),
    recipient: party(recipient),
    description: line.description,
    net_cents: Number(row.net_cents),
    vat_rate_basis_points: row.vat_rate_bp,
    vat_cents: Number(row.vat_cents),
    gross_cents: Number(row.gross_cents),
    notes: line.notes,
    document_status: row.status as Invoice['document_status'],
    pdf_url: `${publicBaseUrl}/v1/invoices/${row.id}/pdf`,
    xml_url: `${publicBaseUrl}/v1/invoices/${row.id}/xml`,
    created_at: row.created_at.toISOString(),
  };
}

/**
 * What the PDF and the CII XML (XRechnung 3.0) say, as issued: the PDF is rendered once, and the XML
 * download is the XML it embeds. A credit note names the invoice it corrects (`corrected`, BT-25/26).
 */
export function toDocumentData(
  row: InvoiceRow,
  corrected?: Pick<InvoiceRow, 'number' | 'issue_date'> | null,
): InvoiceDocumentData {
  const { issuer, recipient, line } = stored(row);
  const { buyer_reference: buyerReference, ...recipientParty } = recipient;
  const net = Number(row.net_cents);
  // As issued: a §656d invoice gets its due date only later, which changes neither its PDF nor its XML.
  const dueAtIssue = row.due_after_invoice_id === null && row.due_date ? isoDay(row.due_date) : null;
  return {
    profile: 'xrechnung',
    type_code: row.type_code === CREDIT_NOTE ? '381' : '380',
    preceding_invoice: corrected ? { number: corrected.number, issue_date: isoDay(corrected.issue_date) } : null,
    number: row.number,
    issue_date: isoDay(row.issue_date),
    service_date: isoDay(row.service_date),
    due_date: dueAtIssue,
    notes: line.notes,
    currency: 'EUR',
    issuer: issuer.party,
    recipient: recipientParty,
    buyer_reference: buyerReference || row.number,
    payment: issuer.payment,
    lines: [
      {
        position: 1,
        description: line.description,
        quantity: '1',
        unit_code: 'C62',
        unit_price_cents: String(net),
        net_cents: net,
      },
    ],
    vat_category: 'S',
    vat_rate_bp: row.vat_rate_bp,
    net_cents: net,
    vat_cents: Number(row.vat_cents),
    gross_cents: Number(row.gross_cents),
  };
}
