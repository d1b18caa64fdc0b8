import { Type, type Static } from '@sinclair/typebox';
import { Named, Nullable, PageQuerySchema, StringEnum } from '@platform/http';
import { SCHEDULE_STATUSES, TimeRangeFields, scheduleViewFields } from '@platform/scheduling';
import { APPOINTMENT_SIDES, CANCEL_REASONS } from './kind.js';

const Host = Type.String({
  minLength: 1,
  maxLength: 120,
  description: 'The agent who shows the property (no two open appointments of a host overlap).',
});

export const AppointmentInputSchema = Named(
  'AppointmentInput',
  Type.Object(
    {
      inquiry_id: Type.String({ maxLength: 64, description: 'The inquiry whose prospect views the property.' }),
      ...TimeRangeFields,
      host: Type.Optional(Host),
    },
    { additionalProperties: false },
  ),
);
export type AppointmentInput = Static<typeof AppointmentInputSchema>;

export const ConfirmBodySchema = Named(
  'AppointmentConfirm',
  Type.Object(
    { by: StringEnum(APPOINTMENT_SIDES, { description: 'Who confirmed.' }) },
    { additionalProperties: false },
  ),
);
export const CancelBodySchema = Named(
  'AppointmentCancel',
  Type.Object(
    { by: StringEnum(APPOINTMENT_SIDES, { description: 'Who cancelled.' }), reason: StringEnum(CANCEL_REASONS) },
    { additionalProperties: false },
  ),
);
export const RescheduleBodySchema = Named(
  'AppointmentReschedule',
  Type.Object(TimeRangeFields, { additionalProperties: false }),
);

export const AppointmentSchema = Named(
  'Appointment',
  Type.Object(
    {
      id: Type.String(),
      property_id: Type.String(),
      inquiry_id: Type.String(),
      slot_id: Nullable(Type.String({ description: 'The viewing slot it was allocated in, if any.' })),
      host: Nullable(Type.String()),
      ...scheduleViewFields(APPOINTMENT_SIDES, CANCEL_REASONS),
      created_at: Type.String({ format: 'date-time' }),
      updated_at: Type.String({ format: 'date-time' }),
    },
    { description: 'A viewing of a property by the prospect of an inquiry. Ids and times only: no personal data.' },
  ),
);
export type Appointment = Static<typeof AppointmentSchema>;

export const AppointmentParamsSchema = Type.Object({ appointmentId: Type.String() });

export const AppointmentListQuerySchema = Type.Composite([
  PageQuerySchema,
  Type.Object({
    property_id: Type.Optional(Type.String({ maxLength: 64 })),
    status: Type.Optional(StringEnum(SCHEDULE_STATUSES)),
    from: Type.Optional(
      Type.String({ format: 'date-time', description: 'Only appointments starting at or after this time.' }),
    ),
    to: Type.Optional(
      Type.String({ format: 'date-time', description: 'Only appointments starting before this time.' }),
    ),
  }),
]);
export type AppointmentListQuery = Static<typeof AppointmentListQuerySchema>;
