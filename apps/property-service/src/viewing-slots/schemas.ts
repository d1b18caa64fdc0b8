import { Type, type Static } from '@sinclair/typebox';
import { Named, Nullable, PageQuerySchema, StringEnum } from '@platform/http';
import { TimeRangeFields } from '@platform/scheduling';

export const ViewingSlotInputSchema = Named(
  'ViewingSlotInput',
  Type.Object(
    {
      ...TimeRangeFields,
      capacity: Type.Integer({ minimum: 1, maximum: 100, description: 'How many prospects may come.' }),
      host: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 120,
          description: "The agent who shows the property (a host's open slots never overlap).",
        }),
      ),
    },
    { additionalProperties: false },
  ),
);
export type ViewingSlotInput = Static<typeof ViewingSlotInputSchema>;

export const ViewingSlotSchema = Named(
  'ViewingSlot',
  Type.Object(
    {
      id: Type.String(),
      property_id: Type.String(),
      host: Nullable(Type.String()),
      capacity: Type.Integer(),
      booked: Type.Integer({ description: 'Open (proposed or confirmed) appointments in the slot.' }),
      status: StringEnum(['open', 'cancelled']),
      starts_at: Type.String({ format: 'date-time' }),
      ends_at: Type.String({ format: 'date-time' }),
      created_at: Type.String({ format: 'date-time' }),
      updated_at: Type.String({ format: 'date-time' }),
    },
    { description: 'A time a host offers viewings of a property to up to `capacity` prospects.' },
  ),
);
export type ViewingSlot = Static<typeof ViewingSlotSchema>;

export const PropertySlotsParamsSchema = Type.Object({ propertyId: Type.String() });
export const ViewingSlotParamsSchema = Type.Object({ slotId: Type.String() });
export const ViewingSlotListQuerySchema = PageQuerySchema;
