import { nextInvoiceNumber } from '@platform/billing';
import { newId, type Db, type Prisma } from '@platform/db';
import { accountTimeZone } from '@platform/accounts';
import { localDate } from '@platform/scheduling';
import { CREDIT_NOTE, type InvoiceRow } from './mapping.js';
import { invoiceRepository } from './repository.js';

/** The credit notes' own gapless series (per account and year), printed with this prefix. */
const SERIES = 'credit-note';
const PREFIX = 'KR-';

/**
 * In the caller's transaction, with the invoice locked: a credit note (type 381) correcting it in
 * full — the same issuer, recipient, service and amounts, numbered in its own series, dated today
 * in the account's zone, with the reason and the corrected invoice printed. The invoice itself is
 * never changed. Resolves to the credit note's id.
 */
export async function issueCreditNote(tx: Db, invoice: InvoiceRow, reason: string, at: Date): Promise<string> {
  const issueDate = localDate(at, await accountTimeZone(tx, invoice.account_id));
  const { number } = await nextInvoiceNumber(tx, invoice.account_id, SERIES, Number(issueDate.slice(0, 4)));
  const id = newId('inv', at.getTime());
  const line = invoice.line as { description: string; notes: string[] };
  const day = (iso: string) => new Date(`${iso}T00:00:00Z`);
  await invoiceRepository.insert(tx, {
    id,
    account_id: invoice.account_id,
    settlement_id: invoice.settlement_id,
    property_id: invoice.property_id,
    party: invoice.party,
    type_code: CREDIT_NOTE,
    corrects_invoice_id: invoice.id,
    number: `${PREFIX}${number}`,
    issue_date: day(issueDate),
    service_date: invoice.service_date,
    due_date: null,
    payment_terms_days: invoice.payment_terms_days,
    issuer: invoice.issuer as Prisma.InputJsonValue,
    recipient: invoice.recipient as Prisma.InputJsonValue,
    line: {
      description: line.description,
      notes: [
        `Diese Rechnungskorrektur storniert die Rechnung ${invoice.number} in voller Höhe. Grund: ${reason.trim()}`,
        invoice.state === 'paid'
          ? 'Der bereits gezahlte Betrag wird Ihnen erstattet.'
          : 'Die Rechnung ist damit nicht mehr zu zahlen.',
      ],
    },
    net_cents: invoice.net_cents,
    vat_rate_bp: invoice.vat_rate_bp,
    vat_cents: invoice.vat_cents,
    gross_cents: invoice.gross_cents,
    created_at: at,
    updated_at: at,
  });
  return id;
}
