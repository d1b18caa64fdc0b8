import { invoiceJobs, type InvoiceDocumentData, type InvoiceLine, type InvoiceParty } from '@platform/billing';
import type { ChargebackUnit, Db } from '@platform/db';
import { addDays } from '@platform/scheduling';
import { agentNames, ratesByIds } from '../agents/index.js';
import { internalInvoiceRow, linesOfSettlement } from './repository.js';

// The PDF of an internal invoice: what it says (from the invoice row and its settlement's lines), and
// its jobs (render one; enqueue again those stuck in `generating`).

/** The last day of a month `YYYY-MM`. */
const lastDayOf = (period: string) => {
  const [year, month] = period.split('-').map(Number);
  return addDays(new Date(Date.UTC(year, month, 1)).toISOString().slice(0, 10), -1);
};

/** UN/ECE Recommendation 20 codes of the chargeback units; tokens are priced per thousand (`C62`, one block). */
const UNIT_CODES: Record<ChargebackUnit, string> = {
  per_request: 'C62',
  per_1k_tokens: 'C62',
  per_hour: 'HUR',
  per_month: 'MON',
};
const UNIT_TEXTS: Record<ChargebackUnit, string> = {
  per_request: 'je Anfrage',
  per_1k_tokens: 'je 1.000 Tokens',
  per_hour: 'je Stunde',
  per_month: 'je Monat',
};

/**
 * What the PDF of an internal invoice says, from its row, the settlement's lines and the agents' names:
 * VAT category `O` (no VAT within one organisation), no payment details, the team as the recipient.
 */
export async function internalInvoiceData(db: Db, id: string): Promise<InvoiceDocumentData> {
  const invoice = await internalInvoiceRow(db, id);
  const account_id = invoice.account_id;
  const lines = await linesOfSettlement(db, account_id, invoice.settlement_id);
  const agents = await agentNames(db, account_id, [...new Set(lines.map((l) => l.agent_id))]);
  const rates = await ratesByIds(db, account_id, [...new Set(lines.map((l) => l.rate_id))]);
  const names = new Map(agents.map((a) => [a.id, a.name]));
  const rateUnits = new Map(rates.map((r) => [r.id, r.unit]));
  const issuer = invoice.issuer as unknown as InvoiceParty;
  const net = Number(invoice.net_cents);
  const invoiceLines: InvoiceLine[] = lines.map((line) => {
    const priced = (rateUnits.get(line.rate_id) ?? line.unit) === line.unit;
    const parts = [
      `${names.get(line.agent_id) ?? line.agent_id} (${line.agent_id})`,
      `Nutzung ${line.usage_period}${line.late ? ' (Nachberechnung: nach Abrechnung des Zeitraums gemeldet)' : ''}`,
      UNIT_TEXTS[line.unit],
      ...(priced ? [] : ['nicht bepreist: Einheit weicht vom gültigen Satz ab']),
    ];
    return {
      position: line.position,
      description: parts.join(', '),
      quantity: line.quantity.toString(),
      unit_code: UNIT_CODES[line.unit],
      unit_price_cents: priced ? String(line.rate_amount_cents) : '0',
      net_cents: Number(line.amount_cents),
    };
  });
  return {
    // Within one organisation: plain EN 16931 (no recipient address for an XRechnung's routing).
    profile: 'en16931',
    type_code: '380',
    number: invoice.number,
    issue_date: invoice.issue_date.toISOString().slice(0, 10),
    service_date: lastDayOf(invoice.period),
    service_period: { start: `${invoice.period}-01`, end: lastDayOf(invoice.period) },
    due_date: null,
    notes: [
      `Interne Leistungsverrechnung der Nutzung von Agenten im Zeitraum ${invoice.period} für das Team ${invoice.team}.`,
      'Betrag je Position: Menge × Satz, einmal je Position kaufmännisch gerundet.',
    ],
    currency: 'EUR',
    issuer,
    recipient: { name: invoice.team, street: '', postal_code: '', city: '', country: issuer.country },
    buyer_reference: invoice.team,
    payment: null,
    lines: invoiceLines,
    vat_category: 'O',
    vat_rate_bp: 0,
    net_cents: net,
    vat_cents: 0,
    gross_cents: net,
  };
}

/** The PDF of an internal invoice, rendered from the invoice row (its copied issuer) and its settlement's lines. */
export const internalInvoiceJobs = invoiceJobs({
  table: 'internal_invoices',
  name: 'internal-invoice',
  plural: 'internal-invoices',
  idField: 'internal_invoice_id',
  renders: 'the PDF of an internal invoice',
  load: internalInvoiceData,
});
export const GENERATE_INTERNAL_INVOICE_JOB = internalInvoiceJobs.generate;
export const SWEEP_INTERNAL_INVOICES_JOB = internalInvoiceJobs.sweep;
