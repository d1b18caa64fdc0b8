import type { InvoiceParty } from './invoice-data.js';

/** A field an XRechnung invoice needs and the party does not have, with the rule that asks for it. */
export interface EInvoiceGap {
  /** The party's field: `contact`, `phone`, `email`, `postal_code`, `city`. */
  field: keyof InvoiceParty;
  rule: string;
  /** What the field is in the norm, e.g. `BT-41 seller contact point`. */
  term: string;
}

const SELLER: readonly Omit<EInvoiceGap, 'rule'>[] = [
  { field: 'contact', term: 'BT-41 seller contact point' },
  { field: 'phone', term: 'BT-42 seller contact telephone number' },
  { field: 'email', term: 'BT-43 seller contact e-mail address (and BT-34 seller electronic address)' },
  { field: 'postal_code', term: 'BT-38 seller post code' },
  { field: 'city', term: 'BT-37 seller city' },
];
const SELLER_RULES: Partial<Record<keyof InvoiceParty, string>> = {
  contact: 'BR-DE-5',
  phone: 'BR-DE-6',
  email: 'BR-DE-7',
  postal_code: 'BR-DE-4',
  city: 'BR-DE-3',
};
const BUYER: readonly EInvoiceGap[] = [
  { field: 'email', rule: 'PEPPOL-EN16931-R010', term: 'BT-49 buyer electronic address' },
  { field: 'postal_code', rule: 'BR-DE-9', term: 'BT-53 buyer post code' },
  { field: 'city', rule: 'BR-DE-8', term: 'BT-52 buyer city' },
];

const blank = (value: unknown) => typeof value !== 'string' || value.trim() === '';

/**
 * What an XRechnung 3.0 invoice would lack of the seller (the issuer's billing profile) and of the
 * buyer (the recipient): asked before an invoice is issued, so none is issued that its recipient's
 * validator would reject. The seller's tax number or VAT id (BR-DE-16) is required by the profile itself.
 */
export function eInvoiceGaps(
  issuer: InvoiceParty,
  recipient: InvoiceParty,
): { issuer: EInvoiceGap[]; recipient: EInvoiceGap[] } {
  return {
    issuer: SELLER.filter((gap) => blank(issuer[gap.field])).map((gap) => ({ ...gap, rule: SELLER_RULES[gap.field]! })),
    recipient: BUYER.filter((gap) => blank(recipient[gap.field])),
  };
}
