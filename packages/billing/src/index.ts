export { formatInvoiceNumber, nextInvoiceNumber } from './numbering-sql.js';
export { invoiceCii } from './cii.js';
export type * from './invoice-data.js';
export { renderInvoicePdf } from './invoice-pdf.js';
export { euros, germanDate } from './format.js';
export { findIssuer, setBillingProfile, type BillingProfileInput, type Issuer } from './profile.js';
export { normaliseIban } from './iban.js';
export { invoiceJobs, type InvoiceJobsOptions } from './invoice-jobs.js';
export { eInvoiceGaps, type EInvoiceGap } from './e-invoice-gaps.js';
