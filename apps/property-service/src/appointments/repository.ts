import type { Prisma } from '@platform/db';
import { notFound } from '@platform/http';
import { tenantRepository } from '@platform/resource';

export type AppointmentRow = Prisma.AppointmentGetPayload<object>;

export const appointmentRepository = tenantRepository<AppointmentRow, Prisma.AppointmentUncheckedUpdateInput>({
  table: 'appointments',
  list: 'appointments',
  model: (db) => db.appointment,
  notFound: () => notFound('No appointment with this id.'),
});
