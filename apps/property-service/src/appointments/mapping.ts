import { scheduleView } from '@platform/scheduling';
import type { AppointmentSide, CancelReason } from './kind.js';
import type { AppointmentRow } from './repository.js';
import type { Appointment } from './schemas.js';

export function toAppointment(row: AppointmentRow, timeZone: string): Appointment {
  return {
    id: row.id,
    property_id: row.property_id,
    inquiry_id: row.inquiry_id,
    slot_id: row.slot_id,
    host: row.host,
    ...scheduleView<AppointmentSide, CancelReason>(row, timeZone),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
