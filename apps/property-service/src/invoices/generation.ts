import { renderInvoicePdf } from '@platform/billing';
import { documentJobs, type DocumentKind } from '@platform/documents';
import { toDocumentData } from './mapping.js';

/** The PDF of a commission invoice, rendered from its row (issuer and recipient as copied when it was issued). */
export const invoiceDocument: DocumentKind = {
  table: 'invoices',
  async render(db, _storage, id) {
    return renderInvoicePdf(toDocumentData(await db.invoice.findUniqueOrThrow({ where: { id } })));
  },
  // No event: `settlement.created` already named the invoices.
  async completed() {},
};

export const invoiceJobs = documentJobs(invoiceDocument, { name: 'invoice', plural: 'invoices', idField: 'invoice_id', renders: 'the PDF of a commission invoice' });
