import type { Db, Prisma } from '@platform/db';
import type { InvoiceParty, InvoicePayment } from './invoice-data.js';

export type BillingProfileInput = Omit<Prisma.BillingProfileUncheckedCreateInput, 'account_id' | 'updated_at'>;

/** The issuer as an invoice copies it, or null when the account has no billing profile yet. */
export interface Issuer {
  party: InvoiceParty;
  payment: InvoicePayment | null;
  payment_terms_days: number;
}

export async function findIssuer(db: Db, accountId: string): Promise<Issuer | null> {
  const row = await db.billingProfile.findUnique({ where: { account_id: accountId } });
  if (!row) return null;
  const { name, street, postal_code, city, country, vat_id, tax_number, email, phone, contact, iban, bic } = row;
  return {
    party: { name, street, postal_code, city, country, vat_id, tax_number, email, phone, contact },
    payment: iban ? { iban, bic, account_holder: name } : null,
    payment_terms_days: row.payment_terms_days,
  };
}

/** Creates or replaces the account's billing profile (issued invoices keep the copy they were issued with). */
export async function setBillingProfile(
  db: Db,
  accountId: string,
  input: BillingProfileInput,
  at: Date,
): Promise<void> {
  const data = { ...input, updated_at: at };
  await db.billingProfile.upsert({
    where: { account_id: accountId },
    create: { account_id: accountId, ...data },
    update: data,
  });
}
