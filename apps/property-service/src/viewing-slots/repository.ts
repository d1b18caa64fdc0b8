import type { Prisma } from '@platform/db';
import { notFound } from '@platform/http';
import { tenantRepository } from '@platform/resource';
import type { ScheduleKind } from '@platform/scheduling';

export type ViewingSlotRow = Prisma.ViewingSlotGetPayload<object>;

export const slotRepository = tenantRepository<ViewingSlotRow, Prisma.ViewingSlotUncheckedUpdateInput>({
  table: 'viewing_slots',
  list: 'viewing_slots',
  model: (db) => db.viewingSlot,
  notFound: () => notFound('No viewing slot with this id.'),
});

/** Slots in the scheduling mechanism: only their overlaps (a host's open slots), no state machine of theirs. */
export const SLOTS: ScheduleKind = {
  table: 'viewing_slots',
  noun: 'viewing slot',
  sides: [],
  reasons: [],
  overlaps: { viewing_slots_host_overlap: { field: 'host', columns: ['account_id', 'host'] } },
  open: ['open'],
};
