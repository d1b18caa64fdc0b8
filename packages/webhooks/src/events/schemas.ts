import { Type } from '@sinclair/typebox';
import { Named, PageQuerySchema, SeitenQuerySchema, StringEnum } from '@platform/http';
import type { EventCatalogue } from '../catalogue.js';

const DateTime = (description: string) => Type.String({ format: 'date-time', description });

/** The schemas of the English events API (`/v1/events`) for one catalogue. */
export function eventSchemas(catalogue: EventCatalogue) {
  const types = catalogue.map((e) => e.type);
  return {
    EventSchema: Named(
      'Event',
      Type.Object({
        id: Type.String({ description: 'The event id: the `id` of the webhook delivery body (`evt_…`).' }),
        type: StringEnum(types),
        created_at: DateTime('When the event happened.'),
        data: Type.Object(
          {},
          { additionalProperties: true, description: 'As the event type defines it (`GET /v1/event-types`).' },
        ),
      }),
    ),
    EventListQuerySchema: Type.Composite([
      PageQuerySchema,
      Type.Object({
        type: Type.Optional(
          Type.Array(StringEnum(types), {
            minItems: 1,
            maxItems: types.length,
            uniqueItems: true,
            description: 'Only events of these types (repeat the parameter: `type=a&type=b`).',
          }),
        ),
        created_after: Type.Optional(DateTime('Only events created at or after this time.')),
        created_before: Type.Optional(DateTime('Only events created before this time.')),
      }),
    ]),
    EventParamsSchema: Type.Object({ eventId: Type.String({ maxLength: 64 }) }),
  };
}

/** The schemas of the German events API (`/leads/v1/ereignisse`) for one catalogue. */
export function ereignisSchemas(catalogue: EventCatalogue) {
  const types = catalogue.map((e) => e.type);
  return {
    EreignisSchema: Named(
      'Ereignis',
      Type.Object({
        id: Type.String({ description: 'Die Ereignis-ID: die `id` im Inhalt der Webhook-Zustellung (`evt_…`).' }),
        typ: StringEnum(types),
        angelegt_am: DateTime('Wann das Ereignis eintrat (`created_at` der Zustellung).'),
        daten: Type.Object(
          {},
          {
            additionalProperties: true,
            description: '`data` der Zustellung, unverändert (englische Feldnamen, wie der Ereignistyp sie festlegt).',
          },
        ),
      }),
    ),
    EreignisListQuerySchema: Type.Composite([
      SeitenQuerySchema,
      Type.Object({
        typ: Type.Optional(
          Type.Array(StringEnum(types), {
            minItems: 1,
            maxItems: types.length,
            uniqueItems: true,
            description: 'Nur Ereignisse dieser Typen (Parameter wiederholen: `typ=a&typ=b`).',
          }),
        ),
        angelegt_ab: Type.Optional(DateTime('Nur Ereignisse ab diesem Zeitpunkt (einschließlich).')),
        angelegt_vor: Type.Optional(DateTime('Nur Ereignisse vor diesem Zeitpunkt.')),
      }),
    ]),
    EreignisParamsSchema: Type.Object({ ereignisId: Type.String({ maxLength: 64 }) }),
  };
}
