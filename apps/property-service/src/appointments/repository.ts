import { newId, type Db, type Prisma } from '@platform/db';
import { notFound } from '@platform/http';
import { tenantRepository } from '@platform/resource';

export type AppointmentRow = Prisma.AppointmentGetPayload<object>;

/** The states in which an appointment still takes place. */
const OPEN = { in: ['proposed' as const, 'confirmed' as const] };

/** An appointment to record: who views which property when (and in which slot, when allocated). */
export interface NewAppointment {
  property_id: string;
  inquiry_id: string;
  prospect_id: string;
  host: string | null;
  slot_id?: string;
  starts_at: Date;
  ends_at: Date;
}

/** Viewing appointments: the only place the appointments table is queried or written. */
export const appointmentRepository = {
  ...tenantRepository<AppointmentRow, Prisma.AppointmentUncheckedUpdateInput>({
    table: 'appointments',
    list: 'appointments',
    model: (db) => db.appointment,
    notFound: () => notFound('No appointment with this id.'),
  }),

  /**
   * Records new appointments (`proposed`) of one account at one time, in one statement: the only
   * insert of appointment rows (a booking and a slot's allocation both come here). Their ids are
   * made from `at`, one millisecond apart, in the given order.
   */
  insert(tx: Db, accountId: string, at: Date, appointments: readonly NewAppointment[]): Promise<AppointmentRow[]> {
    if (appointments.length === 0) return Promise.resolve([]);
    return tx.appointment.createManyAndReturn({
      data: appointments.map((appointment, i) => ({
        id: newId('apt', at.getTime() + i),
        account_id: accountId,
        ...appointment,
        created_at: at,
        updated_at: at,
      })),
    });
  },

  /** The appointment as it is now (it exists: read after a lock). */
  get(db: Db, id: string): Promise<AppointmentRow> {
    return db.appointment.findUniqueOrThrow({ where: { id } });
  },

  /** The appointments of the given ids (in no particular order). */
  byIds(db: Db, ids: readonly string[]): Promise<AppointmentRow[]> {
    return db.appointment.findMany({ where: { id: { in: [...ids] } } });
  },

  /** The open appointments that match, earliest first. */
  open(
    tx: Db,
    where: { account_id?: string; property_id?: string; prospect_id?: { in: string[] }; slot_id?: string },
  ): Promise<AppointmentRow[]> {
    return tx.appointment.findMany({ where: { ...where, status: OPEN }, orderBy: { starts_at: 'asc' } });
  },

  /** The appointment leaves its slot (a rescheduled one keeps its own time). */
  async leaveSlot(tx: Db, id: string): Promise<void> {
    await tx.appointment.update({ where: { id }, data: { slot_id: null } });
  },

  /** How many open appointments each of the given slots holds. */
  async openCountsBySlot(db: Db, slotIds: readonly string[]): Promise<Map<string, number>> {
    if (slotIds.length === 0) return new Map();
    const rows = await db.appointment.groupBy({
      by: ['slot_id'],
      where: { slot_id: { in: [...slotIds] }, status: OPEN },
      _count: { _all: true },
    });
    return new Map(rows.map((row) => [row.slot_id!, row._count._all]));
  },

  /** How many open appointments the slot holds. */
  openInSlot(tx: Db, slotId: string): Promise<number> {
    return tx.appointment.count({ where: { slot_id: slotId, status: OPEN } });
  },

  /** The account's appointments starting in [from, to), by start then id; nothing about the prospect. */
  between(db: Db, accountId: string, from: Date, to: Date) {
    return db.appointment.findMany({
      where: { account_id: accountId, starts_at: { gte: from, lt: to } },
      orderBy: [{ starts_at: 'asc' }, { id: 'asc' }],
      select: { id: true, property_id: true, status: true, starts_at: true, ends_at: true, host: true },
    });
  },
};

/** The account's appointments starting in [from, to), by start then id: ids, times, status and host only. */
export const appointmentsBetween = (db: Db, accountId: string, from: Date, to: Date) =>
  appointmentRepository.between(db, accountId, from, to);
