import type { Db, Prisma } from '@platform/db';
import { notFound } from '@platform/http';
import { tenantRepository } from '@platform/resource';
import type { InvoiceRow } from './mapping.js';

/** Commission invoices: the only place the invoices table is queried or written. */
export const invoiceRepository = {
  ...tenantRepository<InvoiceRow, Prisma.InvoiceUncheckedUpdateInput>({
    table: 'invoices',
    list: 'invoices',
    model: (db) => db.invoice,
    notFound: () => notFound('No invoice with this id.'),
  }),

  /** The invoice's row, as its PDF is rendered from it. */
  row(db: Db, id: string) {
    return db.invoice.findUniqueOrThrow({ where: { id } });
  },

  async insert(tx: Db, data: Prisma.InvoiceUncheckedCreateInput): Promise<void> {
    await tx.invoice.create({ data });
  },

  /** The invoices whose due date waits for this one to be paid (§ 656d BGB). */
  heldBy(tx: Db, id: string): Promise<{ id: string; payment_terms_days: number }[]> {
    return tx.invoice.findMany({
      where: { due_after_invoice_id: id, due_date: null },
      select: { id: true, payment_terms_days: true },
    });
  },

  async setDueDate(tx: Db, id: string, dueDate: Date, at: Date): Promise<void> {
    await tx.invoice.update({ where: { id }, data: { due_date: dueDate, updated_at: at } });
  },

  /** `paid` on the given day; returned as the invoice's view reads it. */
  markPaid(tx: Db, id: string, paidOn: Date, at: Date): Promise<InvoiceRow> {
    return tx.invoice.update({ where: { id }, data: { state: 'paid', paid_on: paidOn, updated_at: at } });
  },
};
