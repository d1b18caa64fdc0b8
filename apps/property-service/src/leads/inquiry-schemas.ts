import { Type, type Static } from '@sinclair/typebox';
import { Nullable, SeitenQuerySchema, StringEnum } from '@platform/http';
import { InteressentAnlegenSchema } from './prospect-schemas.js';

export const AnfrageAnlegenSchema = Type.Object(
  {
    immobilie_id: Type.String({ minLength: 1, maxLength: 100 }),
    interessent_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Ein bestehender Interessent …' })),
    interessent: Type.Optional({ ...InteressentAnlegenSchema, description: '… oder ein neuer, mit Einwilligung (genau eins von beiden).' }),
    nachricht: Type.Optional(Type.String({ maxLength: 5000 })),
  },
  { additionalProperties: false },
);
export type AnfrageAnlegen = Static<typeof AnfrageAnlegenSchema>;

export const BewertungSchema = Type.Object(
  {
    gesamt: Type.Integer({ minimum: 0, maximum: 100 }),
    gewichtungsversion: Type.String(),
    ausgeschlossen: Type.Boolean({ description: 'Ein Ausschlusskriterium greift; die Gesamtpunktzahl ist 0.' }),
    ausschlussgruende: Type.Array(Type.Object({ kriterium: Type.String(), grund: Type.String() })),
    kriterien: Type.Array(
      Type.Object({
        kriterium: Type.String(),
        gewicht: Type.Integer(),
        punkte: Type.Integer(),
        ergebnis: StringEnum(['erfuellt', 'abweichend']),
        grund: Type.String(),
      }),
      { description: 'Die Punkte aller Kriterien ergeben zusammen genau `gesamt`.' },
    ),
  },
  { description: 'Nachvollziehbare Bewertung der Anfrage.' },
);

export const AnfrageSchema = Type.Object({
  id: Type.String(),
  immobilie_id: Type.String(),
  interessent_id: Type.String(),
  nachricht: Nullable(Type.String({ description: '`null` nach Löschung oder Anonymisierung des Interessenten.' })),
  bewertung: BewertungSchema,
  bewertet_am: Type.String({ format: 'date-time', description: 'Wann die Bewertung berechnet wurde: beim Eingang und bei jeder Neubewertung.' }),
  eingegangen_am: Type.String({ format: 'date-time' }),
});
export type Anfrage = Static<typeof AnfrageSchema>;

export const AnfrageParamsSchema = Type.Object({ anfrageId: Type.String() });

export const AnfrageListQuerySchema = Type.Composite([SeitenQuerySchema, Type.Object({ immobilie_id: Type.Optional(Type.String({ maxLength: 100 })) })]);
