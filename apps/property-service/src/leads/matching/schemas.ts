import { Type } from '@sinclair/typebox';
import { Named, StringEnum } from '@platform/http';

export const InquiryScoreSchema = Named(
  'Bewertung',
  Type.Object(
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
  ),
);
