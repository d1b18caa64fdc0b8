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

  /** The invoices and credit notes of the settlements (ids, party, type), for the settlements' view. */
  ofSettlements(db: Db, settlementIds: readonly string[]) {
    return db.invoice.findMany({
      where: { settlement_id: { in: [...settlementIds] } },
      select: { id: true, settlement_id: true, party: true, type_code: true, corrects_invoice_id: true },
      orderBy: { number: 'asc' },
    });
  },

  /** The credit notes correcting the invoices among `ids`: invoice id → credit note id. */
  async creditNotesOf(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await db.invoice.findMany({
      where: { corrects_invoice_id: { in: [...ids] } },
      select: { id: true, corrects_invoice_id: true },
    });
    return new Map(rows.map((row) => [row.corrects_invoice_id!, row.id]));
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
