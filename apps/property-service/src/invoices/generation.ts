import { invoiceJobs as defineInvoiceJobs } from '@platform/billing';
import { toDocumentData } from './mapping.js';
import { invoiceRepository } from './repository.js';

/** The PDF of a commission invoice, rendered from its row (issuer and recipient as copied when it was issued). */
export const invoiceJobs = defineInvoiceJobs({
  table: 'invoices',
  name: 'invoice',
  plural: 'invoices',
  idField: 'invoice_id',
  renders: 'the PDF of a commission invoice',
  load: async (db, id) => toDocumentData(await invoiceRepository.row(db, id)),
});
