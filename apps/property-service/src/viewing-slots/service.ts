import { inTransaction, newId, type Db } from '@platform/db';
import { ApiError } from '@platform/http';
import { accountTimeZone } from '@platform/accounts';
import { assertHostFree, checkTimeRange, withoutDoubleBooking } from '@platform/scheduling';
import type { ApiContext } from '@platform/service';
import {
  APPOINTMENTS,
  appointmentRepository,
  cancelAppointmentsOfSlot,
  holdViewableProperty,
  singleAppointmentOfHostDuring,
  toAppointment,
} from '../appointments/index.js';
import type { PropertyEvents } from '../events.js';
import { propertyRepository } from '../properties/index.js';
import { inviteesOf } from './invitees.js';
import { SLOTS, slotRepository, type ViewingSlotRow } from './repository.js';
import type { ViewingSlot, ViewingSlotInput } from './schemas.js';

export type ViewingSlotServiceDeps = Pick<ApiContext<PropertyEvents>, 'db' | 'cursors' | 'now'>;
export type ViewingSlotService = ReturnType<typeof createViewingSlotService>;

/** How many open appointments each slot holds: asked of appointments. */
const bookedCounts = (db: Db, ids: string[]) => appointmentRepository.openCountsBySlot(db, ids);

function toSlot(row: ViewingSlotRow, booked: number): ViewingSlot {
  return {
    id: row.id,
    property_id: row.property_id,
    host: row.host,
    capacity: row.capacity,
    booked,
    status: row.status,
    starts_at: row.starts_at.toISOString(),
    ends_at: row.ends_at.toISOString(),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** The open slots of a property that is sold, let or archived are cancelled with their appointments. */
export async function cancelSlotsOfProperty(tx: Db, accountId: string, propertyId: string, at: Date): Promise<void> {
  await slotRepository.cancelOpenOfProperty(tx, accountId, propertyId, at);
}

/** Viewing slots, and their allocation to the best-scored inquiries. */
export function createViewingSlotService({ db, cursors, now }: ViewingSlotServiceDeps) {
  const view = async (row: ViewingSlotRow) => toSlot(row, (await bookedCounts(db, [row.id])).get(row.id) ?? 0);

  return {
    async create(accountId: string, propertyId: string, input: ViewingSlotInput): Promise<ViewingSlot> {
      const at = now();
      const range = checkTimeRange(input, at);
      const host = input.host ?? null;
      const row = await withoutDoubleBooking(
        db,
        SLOTS,
        { range, participants: { account_id: accountId, host } },
        (booking) =>
          inTransaction(booking, async (tx) => {
            await holdViewableProperty(tx, accountId, propertyId);
            await assertHostFree(tx, accountId, host, range, {
              what: 'an appointment',
              find: singleAppointmentOfHostDuring,
            });
            return slotRepository.insert(tx, {
              id: newId('slot', at.getTime()),
              account_id: accountId,
              property_id: propertyId,
              host,
              capacity: input.capacity,
              starts_at: range.start,
              ends_at: range.end,
              created_at: at,
              updated_at: at,
            });
          }),
      );
      return toSlot(row, 0);
    },

    async get(accountId: string, id: string): Promise<ViewingSlot> {
      return view(await slotRepository.find(db, accountId, id));
    },

    async list(accountId: string, propertyId: string, { limit, cursor }: { limit: number; cursor?: string }) {
      await propertyRepository.find(db, accountId, propertyId);
      const page = await slotRepository.page(db, accountId, {
        cursors,
        cursor,
        limit,
        filters: { property_id: propertyId },
        map: (row) => row,
      });
      const counts = await bookedCounts(
        db,
        page.data.map((row) => row.id),
      );
      return { ...page, data: page.data.map((row) => toSlot(row, counts.get(row.id) ?? 0)) };
    },

    /** `open` → `cancelled`; its open appointments are cancelled by the agent (`agent_unavailable`), each with its event. */
    cancel(accountId: string, id: string): Promise<ViewingSlot> {
      const at = now();
      return inTransaction(db, async (tx) => {
        const slot = await slotRepository.lock(tx, accountId, id);
        if (slot.status !== 'open')
          throw new ApiError('invalid_transition', { message: 'The slot is cancelled already.' });
        await cancelAppointmentsOfSlot(tx, accountId, id, at);
        return toSlot(await slotRepository.cancel(tx, id, at), 0);
      });
    },

    /**
     * Invites the property's inquiries in score order into the slot's free places: each gets a
     * `proposed` appointment at the slot's time with its host. Returns the new appointments.
     */
    async allocate(accountId: string, id: string) {
      const at = now();
      const slot = await slotRepository.find(db, accountId, id);
      const created = await withoutDoubleBooking(
        db,
        APPOINTMENTS,
        {
          range: { start: slot.starts_at, end: slot.ends_at },
          participants: { account_id: accountId, host: slot.host },
        },
        (booking) =>
          inTransaction(booking, async (tx) => {
            const locked = await slotRepository.lock(tx, accountId, id); // one allocation of a slot at a time
            if (locked.status !== 'open')
              throw new ApiError('conflict', { message: 'A cancelled slot takes no appointments.' });
            if (locked.starts_at.getTime() <= at.getTime())
              throw new ApiError('conflict', { message: 'The slot has begun; it takes no more appointments.' });
            await holdViewableProperty(tx, accountId, locked.property_id);
            const free = locked.capacity - (await appointmentRepository.openInSlot(tx, id));
            if (free <= 0) return [];
            const invited = await inviteesOf(tx, locked, free);
            const rows = await appointmentRepository.insert(
              tx,
              accountId,
              at,
              invited.map((inquiry) => ({
                property_id: locked.property_id,
                inquiry_id: inquiry.id,
                prospect_id: inquiry.prospect_id,
                slot_id: id,
                host: locked.host,
                starts_at: locked.starts_at,
                ends_at: locked.ends_at,
              })),
            );
            return rows.map((row) => row.id);
          }),
      );
      const timeZone = await accountTimeZone(db, accountId);
      const rows = await appointmentRepository.byIds(db, created);
      const byId = new Map(rows.map((row) => [row.id, row]));
      return { data: created.map((appointmentId) => toAppointment(byId.get(appointmentId)!, timeZone)) };
    },
  };
}
