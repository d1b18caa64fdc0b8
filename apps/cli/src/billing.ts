import { eInvoiceGaps, normaliseIban, setBillingProfile } from '@platform/billing';
import { NotFoundError, UsageError, checkEmail, type CommandContext } from './commands.js';
import { accountExists } from '@platform/accounts';

export interface BillingFlags {
  account?: string;
  name?: string;
  street?: string;
  'postal-code'?: string;
  city?: string;
  country?: string;
  'vat-id'?: string;
  'tax-number'?: string;
  email?: string;
  phone?: string;
  contact?: string;
  iban?: string;
  bic?: string;
  'payment-terms-days'?: string;
}

const required = (flags: BillingFlags, flag: keyof BillingFlags): string => {
  const value = flags[flag]?.trim();
  if (!value) throw new UsageError(`--${flag} is required.`);
  return value;
};
const optional = (value: string | undefined) => value?.trim() || null;

/**
 * The issuer of the account's invoices (§14 Abs. 4 UStG: name and address, tax number or VAT id),
 * with the bank account printed on them and the payment terms. Replaces the whole profile. Says
 * whether it has what an e-invoice (XRechnung 3.0) needs of its issuer: contact person, phone, e-mail.
 */
export async function setBilling(ctx: CommandContext, flags: BillingFlags) {
  const accountId = required(flags, 'account');
  if (!(await accountExists(ctx.db, accountId))) throw new NotFoundError(`No account ${accountId}.`);
  const country = required(flags, 'country').toUpperCase();
  if (!/^[A-Z]{2}$/.test(country))
    throw new UsageError(`--country must be an ISO 3166 two-letter code such as DE (got "${country}").`);
  const vatId = optional(flags['vat-id'])?.replace(/\s+/g, '').toUpperCase() ?? null;
  if (vatId && !/^[A-Z]{2}[A-Z0-9]{2,12}$/.test(vatId))
    throw new UsageError(`--vat-id must look like DE123456789 (got "${vatId}").`);
  const taxNumber = optional(flags['tax-number']);
  if (!vatId && !taxNumber)
    throw new UsageError(
      "An invoice must show the issuer's tax number or VAT id (§14 Abs. 4 Nr. 2 UStG): give --tax-number or --vat-id.",
    );
  const ibanText = optional(flags.iban);
  const iban = ibanText === null ? null : normaliseIban(ibanText);
  if (ibanText !== null && iban === null)
    throw new UsageError(`--iban is not a valid IBAN (its check digits do not match): "${ibanText}".`);
  const bic = optional(flags.bic)?.toUpperCase() ?? null;
  if (bic && !/^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(bic))
    throw new UsageError(`--bic must be 8 or 11 characters such as COBADEFFXXX (got "${bic}").`);
  const emailText = optional(flags.email);
  const email = emailText === null ? null : checkEmail(emailText, '--email');
  const termsText = flags['payment-terms-days']?.trim() ?? '14';
  const terms = Number(termsText);
  if (!/^\d+$/.test(termsText) || terms > 365)
    throw new UsageError(`--payment-terms-days must be a whole number of days from 0 to 365 (got "${termsText}").`);

  const profile = {
    name: required(flags, 'name'),
    street: required(flags, 'street'),
    postal_code: required(flags, 'postal-code'),
    city: required(flags, 'city'),
    country,
    vat_id: vatId,
    tax_number: taxNumber,
    email,
    phone: optional(flags.phone),
    contact: optional(flags.contact),
    iban,
    bic,
    payment_terms_days: terms,
  };
  await setBillingProfile(ctx.db, accountId, profile, (ctx.now ?? (() => new Date()))());
  // Commission invoices are XRechnung 3.0: without these the property service refuses to issue them (409).
  const gaps = eInvoiceGaps(profile, profile).issuer;
  return {
    account_id: accountId,
    ...profile,
    e_invoice_ready: gaps.length === 0,
    e_invoice_missing: gaps.map((gap) => ({
      flag: `--${gap.field.replace(/_/g, '-')}`,
      needed_for: `${gap.term} (${gap.rule})`,
    })),
  };
}
