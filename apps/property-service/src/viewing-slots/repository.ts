import type { Db, Prisma } from '@platform/db';
import { notFound } from '@platform/http';
import { tenantRepository } from '@platform/resource';
import type { ScheduleKind } from '@platform/scheduling';

export type ViewingSlotRow = Prisma.ViewingSlotGetPayload<object>;

/** Viewing slots: the only place the viewing_slots table is queried or written. */
export const slotRepository = {
  ...tenantRepository<ViewingSlotRow, Prisma.ViewingSlotUncheckedUpdateInput>({
    table: 'viewing_slots',
    list: 'viewing_slots',
    model: (db) => db.viewingSlot,
    notFound: () => notFound('No viewing slot with this id.'),
  }),

  insert(tx: Db, data: Prisma.ViewingSlotUncheckedCreateInput): Promise<ViewingSlotRow> {
    return tx.viewingSlot.create({ data });
  },

  /** `open` → `cancelled`. */
  cancel(tx: Db, id: string, at: Date): Promise<ViewingSlotRow> {
    return tx.viewingSlot.update({ where: { id }, data: { status: 'cancelled', updated_at: at } });
  },

  /** Cancels the open slots of a property. */
  async cancelOpenOfProperty(tx: Db, accountId: string, propertyId: string, at: Date): Promise<void> {
    await tx.viewingSlot.updateMany({
      where: { account_id: accountId, property_id: propertyId, status: 'open' },
      data: { status: 'cancelled', updated_at: at },
    });
  },
};

/** Slots in the scheduling mechanism: only their overlaps (a host's open slots), no state machine of theirs. */
export const SLOTS: ScheduleKind = {
  table: 'viewing_slots',
  noun: 'viewing slot',
  sides: [],
  reasons: [],
  overlaps: { viewing_slots_host_overlap: { field: 'host', columns: ['account_id', 'host'] } },
  open: ['open'],
};
