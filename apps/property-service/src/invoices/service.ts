import { requestGeneration, storedFile } from '@platform/documents';
import { invoiceCii } from '@platform/billing';
import { inTransaction } from '@platform/db';
import { ApiError, validationError } from '@platform/http';
import type { ApiContext } from '@platform/service';
import type { PropertyEvents } from '../events.js';
import { issueCreditNote } from './credit-note.js';
import { documentDataOf, invoiceJobs } from './generation.js';
import { accountTimeZone } from '@platform/accounts';
import { addDays, localDate } from '@platform/scheduling';
import { CREDIT_NOTE, isoDay, toInvoice, type InvoiceRow } from './mapping.js';
import { invoiceRepository } from './repository.js';
import type { CreditNoteBody, Invoice, InvoiceListQuery, MarkPaidBody } from './schemas.js';

export type InvoiceServiceDeps = Pick<
  ApiContext<PropertyEvents>,
  'db' | 'cursors' | 'now' | 'publicBaseUrl' | 'emit' | 'jobs'
> & {
  /** Where a failed enqueue of a credit note's PDF is logged (the sweeper renders it later). */
  log?: { warn: (details: object, message: string) => void };
};

/** Commission invoices: issued with their settlement (see issue.ts); read, and marked paid. */
export function createInvoiceService({ db, cursors, now, publicBaseUrl, emit, jobs, log }: InvoiceServiceDeps) {
  /** The views of rows, each with the credit note that corrected it (one query for all). */
  const views = async (rows: InvoiceRow[], on: typeof db = db) => {
    const creditNotes = await invoiceRepository.creditNotesOf(
      on,
      rows.map((row) => row.id),
    );
    return rows.map((row) => toInvoice(row, publicBaseUrl, creditNotes.get(row.id) ?? null));
  };
  const view = async (row: InvoiceRow, on: typeof db = db) => (await views([row], on))[0];
  return {
    async get(accountId: string, id: string): Promise<Invoice> {
      return view(await invoiceRepository.find(db, accountId, id));
    },

    async list(accountId: string, { settlement_id, state, limit, cursor }: InvoiceListQuery & { limit: number }) {
      const page = await invoiceRepository.page(db, accountId, {
        cursors,
        cursor,
        limit,
        filters: { settlement_id, state },
        map: (row: InvoiceRow) => row,
      });
      return { ...page, data: await views(page.data) };
    },

    /**
     * Corrects an issued invoice in full by a credit note (type 381, series `KR-`): the invoice is
     * never changed; it is corrected at most once (409 after that, and for a credit note itself).
     * Emits `invoice.credited`; the credit note's PDF is rendered in the background.
     */
    async creditNote(accountId: string, id: string, body: CreditNoteBody): Promise<Invoice> {
      const at = now();
      const created = await inTransaction(db, async (tx) => {
        const invoice = await invoiceRepository.lock(tx, accountId, id);
        if (invoice.type_code === CREDIT_NOTE)
          throw new ApiError('conflict', {
            message: `${invoice.number} is a credit note; a credit note is not corrected by another.`,
          });
        const existing = (await invoiceRepository.creditNotesOf(tx, [id])).get(id);
        if (existing)
          throw new ApiError('conflict', {
            message: `Invoice ${invoice.number} was already corrected by a credit note.`,
            details: [{ field: 'invoiceId', reason: 'not_allowed', conflicting_id: existing }],
          });
        const creditNoteId = await issueCreditNote(tx, invoice, body.reason, at);
        const row = await invoiceRepository.row(tx, creditNoteId);
        await emit(tx, {
          accountId,
          type: 'invoice.credited',
          data: {
            invoice_id: invoice.id,
            credit_note_id: row.id,
            credit_note_number: row.number,
            settlement_id: row.settlement_id,
            property_id: row.property_id,
            gross_cents: Number(row.gross_cents),
          },
          at,
        });
        return view(row, tx);
      });
      await requestGeneration(
        () => invoiceJobs.enqueue(jobs, created.id),
        (error) => log?.warn({ err: error, invoice_id: created.id }, 'credit note PDF not enqueued; the sweeper will'),
      );
      return created;
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
        return view(await invoiceRepository.markPaid(tx, id, new Date(`${paidOn}T00:00:00Z`), at), tx);
      });
    },

    /** The stored PDF's content address; 404 until it is rendered. */
    async pdf(accountId: string, id: string): Promise<{ sha256: string; number: string }> {
      const invoice = await invoiceRepository.find(db, accountId, id);
      return { sha256: storedFile(invoice, `The PDF of invoice ${invoice.number}`), number: invoice.number };
    },

    /** The invoice as CII XML (XRechnung 3.0) as issued: the bytes its PDF embeds. */
    async xml(accountId: string, id: string): Promise<{ xml: string; number: string }> {
      const invoice = await invoiceRepository.find(db, accountId, id);
      return { xml: invoiceCii(await documentDataOf(db, invoice)), number: invoice.number };
    },
  };
}

export type InvoiceService = ReturnType<typeof createInvoiceService>;
