import type { ScheduleKind } from '@platform/scheduling';

export const APPOINTMENT_SIDES = ['agent', 'prospect'] as const;
export type AppointmentSide = (typeof APPOINTMENT_SIDES)[number];
export const CANCEL_REASONS = ['prospect_declined', 'agent_unavailable', 'property_unavailable', 'other'] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number];

/** Viewings in the shared scheduling mechanism; the constraints are in prisma/schema/constraints.sql. */
export const APPOINTMENTS: ScheduleKind = {
  table: 'appointments',
  noun: 'appointment',
  sides: APPOINTMENT_SIDES,
  reasons: CANCEL_REASONS,
  overlaps: {
    appointments_host_overlap: { field: 'host', columns: ['account_id', 'host'] },
    appointments_prospect_overlap: { field: 'inquiry_id', columns: ['prospect_id'] },
  },
};
