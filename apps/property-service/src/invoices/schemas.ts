import { Type, type Static } from '@sinclair/typebox';
import { Named, Nullable, PageQuerySchema, StringEnum } from '@platform/http';

const Text = (maxLength: number, description: string) => Type.String({ minLength: 1, maxLength, description });

/** Who an invoice is addressed to (§14 Abs. 4 Nr. 1 UStG): given per paying party with `mark-sold` / `mark-rented`. */
export const InvoiceRecipientSchema = Named(
  'InvoiceRecipient',
  Type.Object(
    {
      name: Text(200, 'Full name or company name.'),
      street: Text(200, 'Street and house number.'),
      postal_code: Text(16, 'Postal code.'),
      city: Text(120, 'City.'),
      country: Type.Optional(Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2; default `DE`.' })),
      vat_id: Type.Optional(
        Type.String({
          pattern: '^[A-Z]{2}[A-Z0-9]{2,12}$',
          description: "The recipient's VAT id, when it has one (businesses).",
        }),
      ),
      email: Type.Optional(
        Type.String({
          format: 'email',
          maxLength: 200,
          description:
            "Where the recipient receives e-invoices: the XRechnung's buyer electronic address (BT-49). Needed to issue the invoice (422 without it).",
        }),
      ),
      buyer_reference: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 200,
          pattern: '\\S',
          description:
            "The buyer reference (BT-10): a public buyer's Leitweg-ID (e.g. `04011000-12345-34`), otherwise the reference agreed with the recipient. Default: the invoice number.",
        }),
      ),
    },
    { additionalProperties: false },
  ),
);
export type InvoiceRecipient = Static<typeof InvoiceRecipientSchema>;

const recipients = (parties: readonly string[], deal: string) =>
  Type.Optional(
    Type.Object(Object.fromEntries(parties.map((party) => [party, Type.Optional(InvoiceRecipientSchema)])), {
      additionalProperties: false,
      description:
        `The invoice recipients of the ${deal}'s paying parties. Given: one invoice per paying party is issued with the settlement (each paying party needs its recipient; ` +
        'the account needs a billing profile, `pnpm cli account set-billing`, otherwise 409). Not given: the settlement has no invoices.',
    }),
  );
export const SaleRecipientsSchema = recipients(['seller', 'buyer'], 'sale');
export const LettingRecipientsSchema = recipients(['landlord', 'tenant'], 'letting');

const PARTIES = ['seller', 'buyer', 'landlord', 'tenant'] as const;
const Cents = (description: string) => Type.Integer({ description });
const Day = (description: string) => Type.String({ format: 'date', description });

const PartySchema = Type.Object({
  name: Type.String(),
  street: Type.String(),
  postal_code: Type.String(),
  city: Type.String(),
  country: Type.String(),
  vat_id: Nullable(Type.String()),
  tax_number: Nullable(Type.String()),
});

export const InvoiceSchema = Named(
  'Invoice',
  Type.Object(
    {
      id: Type.String(),
      type: StringEnum(['invoice', 'credit_note'], {
        description:
          "`invoice` (type 380), or `credit_note` (type 381: it corrects the invoice `corrects_invoice_id` in full; amounts as that one's).",
      }),
      number: Type.String({
        description:
          'Gapless per account and year, one series each: invoices `2026-000001`, credit notes `KR-2026-000001`.',
      }),
      corrects_invoice_id: Nullable(Type.String({ description: 'A credit note: the invoice it corrects.' })),
      credit_note_id: Nullable(
        Type.String({
          description: 'An invoice: the credit note that corrected it (`POST /v1/invoices/{id}/credit-note`).',
        }),
      ),
      settlement_id: Type.String(),
      property_id: Type.String(),
      party: StringEnum(PARTIES, { description: 'The paying party of the settlement the invoice is for.' }),
      state: StringEnum(['issued', 'paid'], {
        description: '`issued`, then `paid` (`POST /v1/invoices/{id}/mark-paid`).',
      }),
      issue_date: Day('Rechnungsdatum.'),
      service_date: Day('Leistungsdatum: the day of the sale or letting.'),
      due_date: Nullable(Day('When it is due; `null` while §656d BGB holds it until `due_after_invoice_id` is paid.')),
      due_after_invoice_id: Nullable(
        Type.String({ description: '§656d BGB: this invoice falls due only after that one is paid.' }),
      ),
      paid_on: Nullable(Day('The day it was paid.')),
      issuer: PartySchema,
      recipient: PartySchema,
      description: Type.String({ description: 'The service invoiced.' }),
      net_cents: Cents('Net amount in cents.'),
      vat_rate_basis_points: Type.Integer({ description: 'VAT rate in hundredths of a percent (19 % = 1900).' }),
      vat_cents: Cents('VAT in cents.'),
      gross_cents: Cents('Gross amount in cents.'),
      notes: Type.Array(Type.String(), {
        description: 'Printed on the invoice, e.g. the §656d condition and the payment terms.',
      }),
      document_status: StringEnum(['generating', 'completed', 'failed'], {
        description: 'The PDF: `generating` until rendered.',
      }),
      pdf_url: Type.String({
        description: 'The PDF (`/v1/invoices/{id}/pdf`), available once `document_status` is `completed`.',
      }),
      xml_url: Type.String({
        description: 'The same invoice as UN/CEFACT CII XML (EN 16931, XRechnung/ZUGFeRD-compatible).',
      }),
      created_at: Type.String({ format: 'date-time' }),
    },
    {
      additionalProperties: false,
      description: 'A commission invoice with the §14 UStG particulars; amounts in integer cents.',
    },
  ),
);
export type Invoice = Static<typeof InvoiceSchema>;

export const InvoiceParamsSchema = Type.Object({ invoiceId: Type.String() });

export const InvoiceListQuerySchema = Type.Composite([
  PageQuerySchema,
  Type.Object({
    settlement_id: Type.Optional(Type.String({ description: 'Only the invoices of this settlement.' })),
    state: Type.Optional(StringEnum(['issued', 'paid'])),
  }),
]);
export type InvoiceListQuery = Static<typeof InvoiceListQuerySchema>;

export const MarkPaidBodySchema = Nullable(
  Type.Object(
    { paid_on: Type.Optional(Day('The day the payment arrived, not in the future; default today.')) },
    { additionalProperties: false },
  ),
);
export type MarkPaidBody = Static<typeof MarkPaidBodySchema>;

export const CreditNoteBodySchema = Named(
  'InvoiceCreditNoteInput',
  Type.Object(
    {
      reason: Type.String({
        minLength: 1,
        maxLength: 500,
        pattern: '\\S',
        description:
          'Why the invoice is corrected, printed on the credit note (e.g. "Der Kaufvertrag wurde rückabgewickelt.").',
      }),
    },
    { additionalProperties: false },
  ),
);
export type CreditNoteBody = Static<typeof CreditNoteBodySchema>;
