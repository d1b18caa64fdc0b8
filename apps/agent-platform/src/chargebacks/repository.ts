import type { Db, Prisma } from '@platform/db';
import { notFound } from '@platform/http';
import { tenantRepository } from '@platform/resource';

// What the routes (service.ts) and the invoices' PDF (generation.ts) read; the monthly run writes
// through settlement-sql.ts.

const withInvoice = { internal_invoice: { select: { id: true, number: true } } } as const;

export type SettlementRow = Prisma.ChargebackSettlementGetPayload<{ include: typeof withInvoice }>;
export type InternalInvoiceRow = Prisma.InternalInvoiceGetPayload<object>;

/** Settlements are read with their invoice's id and number (one query per list page). */
export const settlementRepository = tenantRepository<SettlementRow, Prisma.ChargebackSettlementUncheckedUpdateInput>({
  table: 'chargeback_settlements',
  list: 'chargeback_settlements',
  model: (db) => ({
    findFirst: (args) => db.chargebackSettlement.findFirst({ ...args, include: withInvoice }),
    findUniqueOrThrow: (args) => db.chargebackSettlement.findUniqueOrThrow({ ...args, include: withInvoice }),
    findMany: (args) => db.chargebackSettlement.findMany({ ...args, include: withInvoice }),
    update: (args) => db.chargebackSettlement.update({ ...args, include: withInvoice }),
  }),
  notFound: () => notFound('No chargeback settlement with this id.'),
});

export const internalInvoiceRepository = tenantRepository<
  InternalInvoiceRow,
  Prisma.InternalInvoiceUncheckedUpdateInput
>({
  table: 'internal_invoices',
  list: 'internal_invoices',
  model: (db) => db.internalInvoice,
  notFound: () => notFound('No internal invoice with this id.'),
});

export type ChargebackLineRow = Prisma.ChargebackLineGetPayload<object>;

/** A settlement's lines, by position. */
export function linesOfSettlement(db: Db, accountId: string, settlementId: string): Promise<ChargebackLineRow[]> {
  return db.chargebackLine.findMany({
    where: { settlement_id: settlementId, account_id: accountId },
    orderBy: { position: 'asc' },
  });
}

/** An internal invoice by id alone (the PDF job's, which knows it exists). */
export function internalInvoiceRow(db: Db, id: string): Promise<InternalInvoiceRow> {
  return db.internalInvoice.findUniqueOrThrow({ where: { id } });
}
