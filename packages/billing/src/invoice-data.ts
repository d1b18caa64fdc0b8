// What an issued invoice says, as the PDF renderer and the CII XML export read it. Amounts are
// integer cents; the totals are computed once by the app that issues the invoice (never re-rounded here).

/** A party of an invoice (§14 Abs. 4 Nr. 1 UStG: full name and address). */
export interface InvoiceParty {
  name: string;
  street: string;
  postal_code: string;
  city: string;
  /** ISO 3166-1 alpha-2, e.g. `DE`. */
  country: string;
  /** USt-IdNr., e.g. `DE123456789`. */
  vat_id?: string | null;
  /** Steuernummer (the issuer gives this or the VAT id, §14 Abs. 4 Nr. 2 UStG). */
  tax_number?: string | null;
  email?: string | null;
  phone?: string | null;
  /** A contact person's name (the issuer's contact in the XML). */
  contact?: string | null;
}

/** Where the recipient pays (the issuer's bank account). */
export interface InvoicePayment {
  iban: string;
  bic?: string | null;
  account_holder?: string | null;
}

/**
 * The VAT category of every line (EN 16931, UNTDID 5305): `S` standard rate (commission invoices,
 * 19 %), `O` outside the scope of VAT (internal chargebacks within one organisation).
 */
export type VatCategory = 'S' | 'O';

export interface InvoiceLine {
  position: number;
  /** What was supplied, e.g. "Maklerprovision Verkauf Musterstraße 1, 10115 Berlin (Käuferanteil 3,57 %)". */
  description: string;
  /** Decimal string, e.g. `1` or `1234.5`. */
  quantity: string;
  /** UN/ECE Recommendation 20 unit code: `C62` (one), `HUR` (hour), ... */
  unit_code: string;
  /** Net price per unit in cents, may carry decimals for usage rates (a string, e.g. `12.5`). */
  unit_price_cents: string;
  /** The line's net amount in cents (already rounded). */
  net_cents: number;
}

/**
 * The rules the XML follows (BT-24): `xrechnung` is XRechnung 3.0 (the CIUS German recipients and
 * public buyers require; BT-23 the Peppol billing process), `en16931` the plain European norm
 * (internal invoices within one organisation).
 */
export type InvoiceProfile = 'xrechnung' | 'en16931';

/** UNTDID 1001: `380` a commercial invoice, `381` a credit note (it corrects an invoice, BT-25). */
export type InvoiceTypeCode = '380' | '381';

export interface InvoiceDocumentData {
  profile: InvoiceProfile;
  type_code: InvoiceTypeCode;
  /** BT-25/BT-26: the invoice a credit note corrects, its number and issue date (`YYYY-MM-DD`). */
  preceding_invoice?: { number: string; issue_date: string } | null;
  /** `2026-000001`. */
  number: string;
  /** Issue date (Rechnungsdatum), `YYYY-MM-DD`. */
  issue_date: string;
  /** Date of the supply (Leistungsdatum, §14 Abs. 4 Nr. 6 UStG), `YYYY-MM-DD`; for a period its last day. */
  service_date: string;
  /** A period supplied (chargebacks): first and last day, `YYYY-MM-DD`. */
  service_period?: { start: string; end: string } | null;
  /** Payment due date, `YYYY-MM-DD`; null when it is not yet due (§656d BGB: after another invoice is paid). */
  due_date: string | null;
  /** Free text printed and exported as a note, e.g. the §656d condition. */
  notes: string[];
  currency: 'EUR';
  issuer: InvoiceParty;
  recipient: InvoiceParty;
  /** BT-10, the buyer reference: a public buyer's Leitweg-ID, otherwise the reference agreed with the recipient (the invoice number when none was). */
  buyer_reference: string;
  payment: InvoicePayment | null;
  lines: InvoiceLine[];
  vat_category: VatCategory;
  /** Basis points: 1900 = 19 %; 0 for category `O`. */
  vat_rate_bp: number;
  net_cents: number;
  vat_cents: number;
  gross_cents: number;
}
