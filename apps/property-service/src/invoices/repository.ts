import type { Db, Prisma } from '@platform/db';
import { notFound } from '@platform/http';
import { tenantRepository } from '@platform/resource';
import { WITH_PROPERTY, type InvoiceRow } from './mapping.js';

function invoiceModel(db: Db) {
  return {
    findFirst: (args: { where: { id: string; account_id: string } }) =>
      db.invoice.findFirst({ ...args, include: WITH_PROPERTY }),
    findUniqueOrThrow: (args: { where: { id: string } }) =>
      db.invoice.findUniqueOrThrow({ ...args, include: WITH_PROPERTY }),
    findMany: (args: Prisma.InvoiceFindManyArgs) => db.invoice.findMany({ ...args, include: WITH_PROPERTY }),
    update: (args: { where: { id: string }; data: Prisma.InvoiceUncheckedUpdateInput }) =>
      db.invoice.update({ ...args, include: WITH_PROPERTY }),
  };
}

export const invoiceRepository = tenantRepository<InvoiceRow, Prisma.InvoiceUncheckedUpdateInput>({
  table: 'invoices',
  list: 'invoices',
  model: invoiceModel,
  notFound: () => notFound('No invoice with this id.'),
});
