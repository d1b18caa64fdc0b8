import { storedFile } from '@platform/documents';
import { invoiceCii } from '@platform/billing';
import { inTransaction } from '@platform/db';
import { ApiError, validationError } from '@platform/http';
import type { ApiContext } from '@platform/service';
import { accountTimeZone } from '@platform/accounts';
import { addDays, localDate } from '@platform/scheduling';
import { isoDay, toDocumentData, toInvoice } from './mapping.js';
import { invoiceRepository } from './repository.js';
import type { Invoice, InvoiceListQuery, MarkPaidBody } from './schemas.js';

export type InvoiceServiceDeps = Pick<ApiContext, 'db' | 'cursors' | 'now' | 'publicBaseUrl'>;

/** Commission invoices: issued with their settlement (see issue.ts); read, and marked paid. */
export function createInvoiceService({ db, cursors, now, publicBaseUrl }: InvoiceServiceDeps) {
  const view = (row: Parameters<typeof toInvoice>[0]) => toInvoice(row, publicBaseUrl);
  return {
    async get(accountId: string, id: string): Promise<Invoice> {
      return view(await invoiceRepository.find(db, accountId, id));
    },

    list(accountId: string, { settlement_id, state, limit, cursor }: InvoiceListQuery & { limit: number }) {
      return invoiceRepository.page(db, accountId, {
        cursors,
        cursor,
        limit,
        filters: { settlement_id, state },
        map: view,
      });
    },

    /**
     * `issued` → `paid` on the day given (default today). An invoice held by §656d BGB on this one
     * falls due `payment_terms_days` after that day, in the same transaction. Paying twice: 409.
     */
    markPaid(accountId: string, id: string, body: MarkPaidBody | undefined): Promise<Invoice> {
      const at = now();
      return inTransaction(db, async (tx) => {
        const today = localDate(at, await accountTimeZone(tx, accountId));
        const paidOn = body?.paid_on ?? today;
        if (paidOn > today)
          throw validationError([{ field: 'paid_on', reason: 'out_of_range' }], '`paid_on` cannot be in the future.');
        const invoice = await invoiceRepository.lock(tx, accountId, id);
        if (invoice.state === 'paid')
          throw new ApiError('conflict', {
            message: `Invoice ${invoice.number} was already marked paid on ${isoDay(invoice.paid_on!)}.`,
          });
        if (paidOn < isoDay(invoice.issue_date))
          throw validationError(
            [{ field: 'paid_on', reason: 'out_of_range' }],
            '`paid_on` cannot be before the issue date.',
          );
        for (const other of await invoiceRepository.heldBy(tx, id)) {
          const due = new Date(`${addDays(paidOn, other.payment_terms_days)}T00:00:00Z`);
          await invoiceRepository.setDueDate(tx, other.id, due, at);
        }
        return view(await invoiceRepository.markPaid(tx, id, new Date(`${paidOn}T00:00:00Z`), at));
      });
    },

    /** The stored PDF's content address; 404 until it is rendered. */
    async pdf(accountId: string, id: string): Promise<{ sha256: string; number: string }> {
      const invoice = await invoiceRepository.find(db, accountId, id);
      return { sha256: storedFile(invoice, `The PDF of invoice ${invoice.number}`), number: invoice.number };
    },

    /** The invoice as CII XML (EN 16931), built from the row as it is now (a due date set by §656d included). */
    async xml(accountId: string, id: string): Promise<{ xml: string; number: string }> {
      const invoice = await invoiceRepository.find(db, accountId, id);
      return { xml: invoiceCii(toDocumentData(invoice)), number: invoice.number };
    },
  };
}

export type InvoiceService = ReturnType<typeof createInvoiceService>;
