import { inTransaction, type Db } from '@platform/db';
import { ApiError } from '@platform/http';
import { accountTimeZone } from '@platform/accounts';
import {
  applyScheduleAction,
  assertHostFree,
  calendarEvent,
  checkTimeRange,
  withoutDoubleBooking,
  type HostTimeFinder,
  type ScheduleAction,
} from '@platform/scheduling';
import type { ApiContext } from '@platform/service';
import { eventEmitter } from '@platform/webhooks';
import { PROPERTY_EVENTS, type PropertyEvents } from '../events.js';
import { inquiryRepository } from '../leads/inquiries/index.js';
import { prospectRepository } from '../leads/prospects/index.js';
import { propertyRepository } from '../properties/index.js';
import { APPOINTMENTS, type AppointmentSide, type CancelReason } from './kind.js';
import { viewingLocation } from './location.js';
import { toAppointment } from './mapping.js';
import { appointmentRepository, type AppointmentRow } from './repository.js';
import type { Appointment, AppointmentInput, AppointmentListQuery } from './schemas.js';

export type AppointmentServiceDeps = Pick<ApiContext<PropertyEvents>, 'db' | 'cursors' | 'now' | 'emit'> & {
  /** The host's open viewing slot overlapping a range (viewing slots own them; passed in, as slots use appointments). */
  openSlotOfHostDuring: HostTimeFinder;
};
export type AppointmentService = ReturnType<typeof createAppointmentService>;

/** Properties that can be viewed: not sold, let or archived. */
export const VIEWABLE_STATUSES = ['draft', 'active', 'reserved'];

const emitFromHooks = eventEmitter('property', PROPERTY_EVENTS);

/** The property must be viewable, and it is held (share lock) while an appointment is booked on it. */
export async function holdViewableProperty(tx: Db, accountId: string, propertyId: string): Promise<void> {
  const property = await propertyRepository.lock(tx, accountId, propertyId, 'share');
  if (!VIEWABLE_STATUSES.includes(property.status)) {
    throw new ApiError('conflict', { message: `A ${property.status} property takes no viewings.` });
  }
}

/**
 * The prospect must not be anonymised or erased (their viewings were cancelled then), nor
 * restricted (GDPR Art. 18: their data is kept but not processed, and a new invitation or a new
 * time is processing; appointments booked before stay, as the restriction cancels nothing). The
 * row is held (share lock) until the booking commits, so an erasure or a restriction running at the
 * same time waits and then sees the new appointment, or, having committed first, refuses it.
 */
async function holdContactableProspect(tx: Db, accountId: string, prospectId: string): Promise<void> {
  const prospect = await prospectRepository.lock(
    tx,
    accountId,
    prospectId,
    'share',
    () => new ApiError('not_found', { message: 'No prospect of this inquiry.' }),
  );
  if (prospect.anonymised_at)
    throw new ApiError('conflict', { message: 'The prospect of this inquiry is anonymised: nobody can be invited.' });
  if (prospect.restricted_at)
    throw new ApiError('conflict', {
      message:
        'The processing of the prospect of this inquiry is restricted (GDPR Art. 18): no new viewing until the restriction is lifted.',
    });
}

async function cancelled(
  tx: Db,
  emit: AppointmentServiceDeps['emit'],
  row: AppointmentRow,
  by: AppointmentSide,
  reason: CancelReason,
  at: Date,
) {
  await emit(tx, {
    accountId: row.account_id,
    type: 'appointment.cancelled',
    data: {
      appointment_id: row.id,
      property_id: row.property_id,
      starts_at: row.starts_at.toISOString(),
      ends_at: row.ends_at.toISOString(),
      cancelled_by: by,
      reason,
    },
    at,
  });
}

/** Cancels the given open appointments (each with its event) in the caller's transaction. */
async function cancelOpen(
  tx: Db,
  where: { account_id?: string; property_id?: string; prospect_id?: { in: string[] }; slot_id?: string },
  by: AppointmentSide,
  reason: CancelReason,
  at: Date,
) {
  const open = await appointmentRepository.open(tx, where);
  for (const row of open) {
    await applyScheduleAction(tx, APPOINTMENTS, row.id, { action: 'cancel', by, reason }, at);
    await cancelled(tx, emitFromHooks, row, by, reason, at);
  }
  return open.length;
}

/** A property that is sold, let or archived: its open appointments are cancelled by the agent (`property_unavailable`). */
export function cancelAppointmentsOfProperty(tx: Db, accountId: string, propertyId: string, at: Date): Promise<number> {
  return cancelOpen(tx, { account_id: accountId, property_id: propertyId }, 'agent', 'property_unavailable', at);
}

/** The open viewings of prospects whose data is gone: retention's `EndViewings` (an expired one by the agent, an erased one as declined). */
export function endViewingsOfForgotten(
  tx: Db,
  accountId: string,
  prospectIds: string[],
  how: 'expired' | 'erased',
  at: Date,
) {
  return how === 'erased'
    ? cancelAppointmentsOfProspects(tx, accountId, prospectIds, 'prospect', 'prospect_declined', at)
    : cancelAppointmentsOfProspects(tx, accountId, prospectIds, 'agent', 'other', at);
}

/** Prospects erased or anonymised: their open appointments are cancelled (the rows hold ids and times only). */
export function cancelAppointmentsOfProspects(
  tx: Db,
  accountId: string,
  prospectIds: string[],
  by: AppointmentSide,
  reason: CancelReason,
  at: Date,
): Promise<number> {
  if (prospectIds.length === 0) return Promise.resolve(0);
  return cancelOpen(tx, { account_id: accountId, prospect_id: { in: prospectIds } }, by, reason, at);
}

/** A cancelled slot: its open appointments are cancelled by the agent (`agent_unavailable`). */
export function cancelAppointmentsOfSlot(tx: Db, accountId: string, slotId: string, at: Date): Promise<number> {
  return cancelOpen(tx, { account_id: accountId, slot_id: slotId }, 'agent', 'agent_unavailable', at);
}

/** Viewing appointments of one account at a time; double booking is refused by the database (409). */
export function createAppointmentService({ db, cursors, now, emit, openSlotOfHostDuring }: AppointmentServiceDeps) {
  const slots = { what: 'an open viewing slot', find: openSlotOfHostDuring };
  const view = async (row: AppointmentRow) => toAppointment(row, await accountTimeZone(db, row.account_id));

  /** Applies a state-machine action to the account's appointment, then what follows in the same transaction. */
  /** In a new transaction, or in `on` (a booking's, with its participants locked). */
  const act = (
    accountId: string,
    id: string,
    action: ScheduleAction,
    after?: (tx: Db, row: AppointmentRow, at: Date) => Promise<void>,
    on: Db = db,
  ) => {
    const at = now();
    return inTransaction(on, async (tx) => {
      await appointmentRepository.hold(tx, accountId, id);
      await applyScheduleAction(tx, APPOINTMENTS, id, action, at);
      const row = await appointmentRepository.get(tx, id);
      await after?.(tx, row, at);
      return row;
    });
  };

  return {
    async create(accountId: string, input: AppointmentInput): Promise<Appointment> {
      const at = now();
      const range = checkTimeRange(input, at);
      const inquiry = await inquiryRepository.find(
        db,
        accountId,
        input.inquiry_id,
        () => new ApiError('not_found', { message: 'No inquiry with this inquiry_id.' }),
      );
      const host = input.host ?? null;
      const row = await withoutDoubleBooking(
        db,
        APPOINTMENTS,
        { range, participants: { account_id: accountId, host, prospect_id: inquiry.prospect_id } },
        (booking) =>
          inTransaction(booking, async (tx) => {
            await holdViewableProperty(tx, accountId, inquiry.property_id);
            await holdContactableProspect(tx, accountId, inquiry.prospect_id);
            await assertHostFree(tx, accountId, host, range, slots);
            const [created] = await appointmentRepository.insert(tx, accountId, at, [
              {
                property_id: inquiry.property_id,
                inquiry_id: inquiry.id,
                prospect_id: inquiry.prospect_id,
                host,
                starts_at: range.start,
                ends_at: range.end,
              },
            ]);
            return created;
          }),
      );
      return view(row);
    },

    async get(accountId: string, id: string): Promise<Appointment> {
      return view(await appointmentRepository.find(db, accountId, id));
    },

    async list(accountId: string, { property_id, status, from, to, limit, cursor }: AppointmentListQuery) {
      const startsAt =
        from || to ? { ...(from ? { gte: new Date(from) } : {}), ...(to ? { lt: new Date(to) } : {}) } : undefined;
      const timeZone = await accountTimeZone(db, accountId);
      return appointmentRepository.page(db, accountId, {
        cursors,
        cursor,
        limit,
        filters: { property_id, status, starts_at: startsAt },
        map: (row) => toAppointment(row, timeZone),
      });
    },

    async confirm(accountId: string, id: string, by: AppointmentSide): Promise<Appointment> {
      const row = await act(accountId, id, { action: 'confirm', by }, async (tx, r, at) => {
        await emit(tx, {
          accountId,
          type: 'appointment.confirmed',
          data: {
            appointment_id: r.id,
            property_id: r.property_id,
            starts_at: r.starts_at.toISOString(),
            ends_at: r.ends_at.toISOString(),
            confirmed_by: by,
          },
          at,
        });
      });
      return view(row);
    },

    async cancel(accountId: string, id: string, by: AppointmentSide, reason: CancelReason): Promise<Appointment> {
      return view(
        await act(accountId, id, { action: 'cancel', by, reason }, (tx, r, at) =>
          cancelled(tx, emit, r, by, reason, at),
        ),
      );
    },

    async complete(accountId: string, id: string): Promise<Appointment> {
      return view(await act(accountId, id, { action: 'complete' }));
    },

    /** A new time: back to `proposed`, the old time in the history; an appointment of a slot leaves it. */
    async reschedule(
      accountId: string,
      id: string,
      input: { starts_at: string; ends_at: string },
    ): Promise<Appointment> {
      const range = checkTimeRange(input, now());
      const current = await appointmentRepository.find(db, accountId, id);
      const participants = { account_id: accountId, host: current.host, prospect_id: current.prospect_id };
      const row = await withoutDoubleBooking(db, APPOINTMENTS, { range, participants, exceptId: id }, (booking) =>
        act(
          accountId,
          id,
          { action: 'reschedule', range },
          async (tx, r) => {
            await holdViewableProperty(tx, accountId, r.property_id);
            // a new time is a new invitation: refused for a restricted prospect like a new appointment
            await holdContactableProspect(tx, accountId, r.prospect_id);
            await assertHostFree(tx, accountId, r.host, range, slots);
            if (r.slot_id) await appointmentRepository.leaveSlot(tx, id);
          },
          booking,
        ),
      );
      return view(row.slot_id ? await appointmentRepository.get(db, id) : row);
    },

    /** The appointment as an iCalendar event in the account's time zone (METHOD:CANCEL once cancelled). */
    async ics(accountId: string, id: string): Promise<string> {
      const row = await appointmentRepository.find(db, accountId, id);
      const property = await propertyRepository.calendarFields(db, row.property_id);
      return calendarEvent({
        uid: `${row.id}@property-service`,
        sequence: row.sequence,
        start: row.starts_at,
        end: row.ends_at,
        timeZone: await accountTimeZone(db, accountId),
        summary: `Besichtigung: ${property.title}`,
        location: viewingLocation(property),
        status: row.status,
        stamp: row.updated_at,
        productId: { company: 'property-service', product: 'viewings' },
      });
    },
  };
}
