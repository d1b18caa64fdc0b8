import { Type, type Static } from '@sinclair/typebox';
import { Named, Nullable, StringEnum } from '@platform/http';

/** What a consent is for: `marketing` (offers, matches, newsletters) or `kontaktaufnahme` (answering the person's own request). */
export const ZWECKE = ['marketing', 'kontaktaufnahme'] as const;
/** How a consent was given. */
export const QUELLEN = ['website_formular', 'portal', 'telefon', 'persoenlich', 'sonstiges'] as const;
/** Sources whose consents need a double opt-in unless `double_opt_in` says otherwise: the person typed the address in themselves. */
export const DOUBLE_OPT_IN_QUELLEN: readonly (typeof QUELLEN)[number][] = ['website_formular', 'portal'];

export const ConsentInputSchema = Named(
  'EinwilligungErteilen',
  Type.Object(
    {
      zweck: StringEnum(ZWECKE, { description: '`marketing` oder `kontaktaufnahme`.' }),
      quelle: StringEnum(QUELLEN, { description: 'Wie die Einwilligung erteilt wurde.' }),
      erteilt_am: Type.String({
        format: 'date-time',
        description: 'Wann sie erteilt wurde; höchstens 5 Minuten nach jetzt (Uhrabweichung), sonst 422.',
      }),
      textversion: Type.Optional(
        Type.String({ minLength: 1, maxLength: 100, description: 'Version des Einwilligungstextes, z. B. `2026-11`.' }),
      ),
      zweck_text: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 500,
          description: 'Der Zweck in den Worten, die der Person gezeigt wurden.',
        }),
      ),
      double_opt_in: Type.Optional(
        Type.Boolean({
          description:
            'Gilt erst nach der Bestätigung (`POST …/bestaetigung`). Standard: `true` für `website_formular` und `portal`, sonst `false`.',
        }),
      ),
    },
    { additionalProperties: false },
  ),
);
export type ConsentInput = Static<typeof ConsentInputSchema>;

export const ConsentRecordSchema = Named(
  'Einwilligungsnachweis',
  Type.Object(
    {
      id: Type.String(),
      interessent_id: Type.String(),
      zweck: StringEnum(ZWECKE),
      zweck_text: Nullable(Type.String()),
      textversion: Nullable(Type.String()),
      quelle: StringEnum(QUELLEN),
      double_opt_in: Type.Boolean({ description: '`true`: gilt erst mit `bestaetigt_am`.' }),
      erteilt_am: Type.String({ format: 'date-time' }),
      bestaetigt_am: Nullable(Type.String({ format: 'date-time' })),
      widerrufen_am: Nullable(Type.String({ format: 'date-time' })),
      gueltig: Type.Boolean({ description: 'Erteilt, bestätigt (falls Double-Opt-in) und nicht widerrufen.' }),
      angelegt_am: Type.String({ format: 'date-time' }),
    },
    {
      additionalProperties: false,
      description: 'Eine Einwilligung eines Interessenten mit Bestätigung und Widerruf; die Historie bleibt.',
    },
  ),
);
export type ConsentRecord = Static<typeof ConsentRecordSchema>;

export const ConsentListSchema = Named(
  'Einwilligungen',
  Type.Object({ daten: Type.Array(ConsentRecordSchema, { description: 'Älteste zuerst.' }) }),
);

export const ConsentParamsSchema = Type.Object({ interessentId: Type.String(), einwilligungId: Type.String() });
