import { Type, type Static } from '@sinclair/typebox';
import { Named } from '@platform/http';

export const TrefferEinstellungenSchema = Named(
  'TrefferEinstellungen',
  Type.Object(
    {
      treffer_schwelle: Type.Integer({
        minimum: 0,
        maximum: 100,
        description:
          'Mindestbewertung (`gesamt` des Anfragemodells), ab der ein Treffer angekündigt wird (Ereignis `prospect.matched`). Standard 70.',
      }),
      treffer_pro_tag: Type.Integer({
        minimum: 0,
        maximum: 100,
        description:
          'Höchstens so viele Treffer je Interessent und Kalendertag des Kontos (seine Zeitzone); weitere werden verworfen, nicht nachgeholt. 0 schaltet die Ankündigung ab. Standard 3.',
      }),
    },
    { additionalProperties: false },
  ),
);

export type TrefferEinstellungen = Static<typeof TrefferEinstellungenSchema>;
