import { renderInvoicePdf } from '@platform/billing';
import { documentJobs, type DocumentKind } from '@platform/documents';
import { internalInvoiceData } from './invoice-document.js';

/** The PDF of an internal invoice, rendered from the invoice row (its copied issuer) and its settlement's lines. */
export const internalInvoiceDocument: DocumentKind = {
  table: 'internal_invoices',
  async render(db, _storage, id) {
    return renderInvoicePdf(await internalInvoiceData(db, id));
  },
  // No event of its own: `settlement.created` announced the invoice; its view shows the status.
  async completed() {},
};

export const internalInvoiceJobs = documentJobs(internalInvoiceDocument, {
  name: 'internal-invoice',
  plural: 'internal-invoices',
  idField: 'internal_invoice_id',
  renders: 'the PDF of an internal invoice',
});
export const GENERATE_INTERNAL_INVOICE_JOB = internalInvoiceJobs.generate;
export const SWEEP_INTERNAL_INVOICES_JOB = internalInvoiceJobs.sweep;
