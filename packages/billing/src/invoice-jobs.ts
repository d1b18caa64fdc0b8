import type { Db } from '@platform/db';
import { documentJobs, type DocumentJobs } from '@platform/documents';
import type { InvoiceDocumentData } from './invoice-data.js';
import { RENDER_INVOICE } from './invoice-pdf.js';

export interface InvoiceJobsOptions {
  /** The invoice table (document columns, see packages/documents). */
  table: string;
  /** `invoice` → jobs `generate-invoice` and `sweep-invoices`. */
  name: string;
  plural: string;
  /** The job payload's id field, e.g. `invoice_id`. */
  idField: string;
  /** For the job's description: `the PDF of a commission invoice`. */
  renders: string;
  /** What the invoice says, read from its row (and what it refers to). */
  load: (db: Db, id: string) => Promise<InvoiceDocumentData>;
}

/**
 * The PDF of one kind of invoice as a generated document: rendered in the sandbox by
 * `renderInvoicePdf` from what `load` reads, stored, swept when stuck. No completion event: the settlement's event named the invoice.
 */
export function invoiceJobs({ table, load, ...names }: InvoiceJobsOptions): DocumentJobs {
  return documentJobs(
    {
      table,
      load: async (db, id) => ({ data: await load(db, id) }),
      renderer: RENDER_INVOICE,
      completed: async () => {},
    },
    names,
  );
}
