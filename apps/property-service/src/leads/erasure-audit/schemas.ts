import { Type, type Static } from '@sinclair/typebox';
import { Named, Nullable, SeitenQuerySchema, StringEnum } from '@platform/http';

export const ErasureRecordSchema = Named(
  'Loeschprotokolleintrag',
  Type.Object(
    {
      id: Type.String(),
      interessent_id: Type.String(),
      art: StringEnum(['loeschung', 'anonymisierung'], {
        description: '`loeschung` auf Verlangen, `anonymisierung` nach Ablauf der Aufbewahrungsfrist (nächtlich).',
      }),
      zeitpunkt: Type.String({ format: 'date-time', description: 'Wann gelöscht oder anonymisiert wurde.' }),
      veranlasst_durch: Type.Object(
        {
          art: StringEnum(['api_key', 'cli', 'aufbewahrungsfrist'], {
            description: 'Ein API-Key, der Betreiber (CLI) oder die Regel „Aufbewahrungsfrist abgelaufen“.',
          }),
          anwendung_id: Nullable(Type.String({ description: 'Die Anwendung des API-Keys (nur bei `api_key`).' })),
          key_id: Nullable(Type.String({ description: 'Der API-Key (nur bei `api_key`).' })),
        },
        { additionalProperties: false },
      ),
      betroffene_zeilen: Type.Object(
        {
          interessenten: Type.Integer({ description: 'Immer 1: der Interessent selbst.' }),
          anfragen: Type.Integer({ description: 'Anfragen, deren Nachricht entfernt wurde.' }),
          termine: Type.Integer({ description: 'Offene Besichtigungstermine, die abgesagt wurden.' }),
        },
        { additionalProperties: false },
      ),
      erneut_angewendet_am: Nullable(
        Type.String({
          format: 'date-time',
          description: 'Nach einer Wiederherstellung der Datenbank erneut angewendet (`pnpm cli erasures reapply`).',
        }),
      ),
    },
    {
      additionalProperties: false,
      description: 'Nachweis einer Löschung oder Anonymisierung, ohne personenbezogene Daten.',
    },
  ),
);
export type ErasureRecordView = Static<typeof ErasureRecordSchema>;

export const ErasureRecordQuerySchema = Type.Composite([
  SeitenQuerySchema,
  Type.Object({
    von: Type.Optional(
      Type.String({ format: 'date-time', description: 'Einträge ab diesem Zeitpunkt (einschließlich).' }),
    ),
    bis: Type.Optional(Type.String({ format: 'date-time', description: 'Einträge vor diesem Zeitpunkt.' })),
  }),
]);
export type ErasureRecordQuery = Static<typeof ErasureRecordQuerySchema>;
