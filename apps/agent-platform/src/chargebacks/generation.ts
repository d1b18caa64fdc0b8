import { invoiceJobs } from '@platform/billing';
import { internalInvoiceData } from './invoice-document.js';

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
