import { newId, type Db, type Prisma } from '@platform/db';
import { eInvoiceGaps, euros, findIssuer, germanDate, nextInvoiceNumber, type InvoiceParty } from '@platform/billing';
import { ApiError, validationError } from '@platform/http';
import { accountTimeZone } from '@platform/accounts';
import { addDays, localDate } from '@platform/scheduling';
import { isoDay } from './mapping.js';
import { invoiceRepository } from './repository.js';
import type { InvoiceRecipient } from './schemas.js';

type SettlementRow = Prisma.CommissionSettlementGetPayload<{ include: { lines: true } }>;
type PropertyRow = Prisma.PropertyGetPayload<object>;

/** The recipients given with `mark-sold` / `mark-rented`, by paying party. */
export type InvoiceRecipients = Partial<Record<string, InvoiceRecipient>>;

const PARTY_NAMES: Record<string, string> = {
  seller: 'Verkäuferanteil',
  buyer: 'Käuferanteil',
  landlord: 'Vermieteranteil',
  tenant: 'Mieteranteil',
};
const TYPE_NAMES: Record<string, string> = {
  apartment: 'der Wohnung',
  house: 'des Hauses',
  land: 'des Grundstücks',
  commercial: 'der Gewerbeeinheit',
  parking: 'des Stellplatzes',
};
const day = (value: string) => new Date(`${value}T00:00:00Z`);

function description(settlement: SettlementRow, property: PropertyRow, line: SettlementRow['lines'][number]): string {
  const address = [property.address_street, `${property.address_postal_code} ${property.address_city}`]
    .filter(Boolean)
    .join(', ');
  const deal = settlement.kind === 'sale' ? 'den Verkauf' : 'die Vermietung';
  const rate =
    line.percent_milli !== null
      ? `${(line.percent_milli / 1000)
          .toFixed(3)
          .replace(/\.?0+$/, '')
          .replace('.', ',')} % von ${euros(line.base_cents)}`
      : `${((line.months_hundredths ?? 0) / 100)
          .toFixed(2)
          .replace(/\.?0+$/, '')
          .replace('.', ',')} Monatskaltmieten à ${euros(line.base_cents)}`;
  return `Maklerprovision für ${deal} ${TYPE_NAMES[property.type] ?? ''} ${address} am ${germanDate(isoDay(settlement.transaction_date))} (${PARTY_NAMES[line.party] ?? line.party}: ${rate})`.replace(
    /\s+/g,
    ' ',
  );
}

/** The recipient as the invoice stores it: the party, and BT-10 when given. */
const storedRecipient = (given: InvoiceRecipient) => ({
  ...recipientParty(given),
  buyer_reference: given.buyer_reference ?? null,
});

const recipientParty = (given: InvoiceRecipient): InvoiceParty => ({
  name: given.name,
  street: given.street,
  postal_code: given.postal_code,
  city: given.city,
  country: given.country ?? 'DE',
  vat_id: given.vat_id ?? null,
  tax_number: null,
  email: given.email ?? null,
});

/**
 * Every invoice is an XRechnung 3.0: what its rules need of a recipient is asked before anything is
 * issued (422 naming `invoice_recipients.<party>.<field>`), then what they need of the issuer (409
 * naming the billing profile's fields, which an operator sets). No invalid document is ever issued.
 */
function assertEInvoiceable(issuer: InvoiceParty, recipients: [party: string, recipient: InvoiceParty][]): void {
  const missing = recipients.flatMap(([party, recipient]) =>
    eInvoiceGaps(issuer, recipient).recipient.map((gap) => ({ party, gap })),
  );
  if (missing.length > 0)
    throw validationError(
      missing.map(({ party, gap }) => ({ field: `invoice_recipients.${party}.${gap.field}`, reason: 'missing' })),
      `An e-invoice (XRechnung 3.0) needs of each recipient: ${missing.map(({ party, gap }) => `${party}: ${gap.term} (${gap.rule})`).join('; ')}.`,
    );
  const issuerGaps = eInvoiceGaps(issuer, issuer).issuer;
  if (issuerGaps.length > 0)
    throw new ApiError('conflict', {
      message:
        `The account's billing profile lacks what an e-invoice (XRechnung 3.0) needs of its issuer: ${issuerGaps.map((gap) => `${gap.term} (${gap.rule})`).join('; ')}. ` +
        'An operator completes it with `pnpm cli account set-billing`.',
      details: issuerGaps.map((gap) => ({ field: `billing_profile.${gap.field}`, reason: 'missing' })),
    });
}

/**
 * In the settlement's transaction: one invoice per paying party, numbered gaplessly (series
 * `commission`, year of the issue date). The party others are due after is issued first; an
 * invoice held by §656d BGB has no due date until that one is paid. Returns the new invoices (their PDFs are enqueued after the commit).
 * No recipients given: no invoices. Given, but not for every paying party or without what an e-invoice
 * needs of them: 422; no billing profile, or one without what an e-invoice needs of its issuer: 409.
 */
export async function issueInvoices(
  tx: Db,
  settlement: SettlementRow,
  property: PropertyRow,
  recipients: InvoiceRecipients | undefined,
  at: Date,
): Promise<{ id: string; party: string }[]> {
  if (!recipients || Object.keys(recipients).length === 0) return [];
  const missing = settlement.lines.filter((line) => !recipients[line.party]);
  if (missing.length > 0) {
    throw validationError(
      missing.map((line) => ({ field: `invoice_recipients.${line.party}`, reason: 'missing' })),
      `Every paying party of the settlement needs its invoice recipient: ${missing.map((line) => line.party).join(', ')}.`,
    );
  }
  const issuer = await findIssuer(tx, settlement.account_id);
  if (!issuer)
    throw new ApiError('conflict', {
      message:
        'The account has no billing profile, so no invoice can be issued: an operator sets it with `pnpm cli account set-billing`.',
    });
  assertEInvoiceable(
    issuer.party,
    settlement.lines.map((line) => [line.party, recipientParty(recipients[line.party]!)]),
  );

  const issueDate = localDate(at, await accountTimeZone(tx, settlement.account_id)); // the account's calendar day
  const year = Number(issueDate.slice(0, 4));
  const ordered = [...settlement.lines].sort(
    (a, b) => Number(a.due_after_party !== null) - Number(b.due_after_party !== null) || a.position - b.position,
  );
  const byParty = new Map<string, { id: string; number: string }>();
  for (const line of ordered) {
    const { number } = await nextInvoiceNumber(tx, settlement.account_id, 'commission', year);
    const id = newId('inv', at.getTime());
    const heldBy = line.due_after_party ? byParty.get(line.due_after_party) : undefined;
    const terms = issuer.payment_terms_days;
    const notes = heldBy
      ? [
          `Gemäß § 656d Abs. 1 Satz 2 BGB wird diese Rechnung erst fällig, wenn die Rechnung ${heldBy.number} (${PARTY_NAMES[line.due_after_party!]}) bezahlt ist; ` +
            `zahlbar dann innerhalb von ${terms} Tagen ohne Abzug.`,
        ]
      : [`Zahlbar innerhalb von ${terms} Tagen ohne Abzug.`];
    await invoiceRepository.insert(tx, {
      id,
      account_id: settlement.account_id,
      settlement_id: settlement.id,
      property_id: settlement.property_id,
      party: line.party,
      number,
      issue_date: day(issueDate),
      service_date: settlement.transaction_date,
      due_date: heldBy ? null : day(addDays(issueDate, terms)),
      due_after_invoice_id: heldBy?.id ?? null,
      payment_terms_days: terms,
      issuer: { party: issuer.party, payment: issuer.payment } as unknown as Prisma.InputJsonValue,
      recipient: storedRecipient(recipients[line.party]!) as unknown as Prisma.InputJsonValue,
      line: { description: description(settlement, property, line), notes },
      net_cents: line.net_cents,
      vat_rate_bp: line.vat_rate_bp,
      vat_cents: line.vat_cents,
      gross_cents: line.gross_cents,
      created_at: at,
      updated_at: at,
    });
    byParty.set(line.party, { id, number });
  }
  return [...byParty].map(([party, invoice]) => ({ id: invoice.id, party }));
}
