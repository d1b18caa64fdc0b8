import { invoiceJobs as defineInvoiceJobs } from '@platform/billing';
import type { Db } from '@platform/db';
import { toDocumentData, type InvoiceRow } from './mapping.js';
import { invoiceRepository } from './repository.js';

/** What the PDF and the XML say: a credit note also names the invoice it corrects. */
export async function documentDataOf(db: Db, row: InvoiceRow) {
  return toDocumentData(row, row.corrects_invoice_id ? await invoiceRepository.row(db, row.corrects_invoice_id) : null);
}

/** The PDF of a commission invoice or credit note, rendered from its row (issuer and recipient as copied when it was issued). */
export const invoiceJobs = defineInvoiceJobs({
  table: 'invoices',
  name: 'invoice',
  plural: 'invoices',
  idField: 'invoice_id',
  renders: 'the PDF of a commission invoice',
  load: async (db, id) => documentDataOf(db, await invoiceRepository.row(db, id)),
});
