import type { Db, Prisma } from '@platform/db';
import { notFound } from '@platform/http';
import { tenantRepository } from '@platform/resource';

const WITH_LINES = {
  lines: { orderBy: { position: 'asc' } },
} as const satisfies Prisma.CommissionSettlementInclude;

export type SettlementRow = Prisma.CommissionSettlementGetPayload<{ include: typeof WITH_LINES }>;

/** Settlements are written once and never changed: the kit's `update` is not offered. */
function settlementModel(db: Db) {
  return {
    findFirst: (args: { where: { id: string; account_id: string } }) =>
      db.commissionSettlement.findFirst({ ...args, include: WITH_LINES }),
    findUniqueOrThrow: (args: { where: { id: string } }) =>
      db.commissionSettlement.findUniqueOrThrow({ ...args, include: WITH_LINES }),
    findMany: (args: Prisma.CommissionSettlementFindManyArgs) =>
      db.commissionSettlement.findMany({ ...args, include: WITH_LINES }),
    update: (): Promise<SettlementRow> => Promise.reject(new Error('a settlement is never changed')),
  };
}

/** Commission settlements and their lines: the only place these tables are queried or written. */
export const settlementRepository = {
  ...tenantRepository<SettlementRow, never>({
    table: 'commission_settlements',
    list: 'settlements',
    model: settlementModel,
    notFound: () => notFound('No settlement with this id.'),
  }),

  /** Records a settlement with its lines (nested in `data`); returned with its lines in position order. */
  insert(tx: Db, data: Prisma.CommissionSettlementUncheckedCreateInput) {
    return tx.commissionSettlement.create({ data, include: { lines: { orderBy: { position: 'asc' } } } });
  },
};
