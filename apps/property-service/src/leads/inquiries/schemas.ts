import { Type, type Static } from '@sinclair/typebox';
import { Named, Nullable, SeitenQuerySchema } from '@platform/http';
import { InquiryScoreSchema } from '../matching/index.js';
import { ProspectInputSchema } from '../prospects/index.js';

export const InquiryInputSchema = Named(
  'AnfrageAnlegen',
  Type.Object(
    {
      immobilie_id: Type.String({ minLength: 1, maxLength: 100 }),
      interessent_id: Type.Optional(
        Type.String({ minLength: 1, maxLength: 100, description: 'Ein bestehender Interessent …' }),
      ),
      interessent: Type.Optional({
        ...ProspectInputSchema,
        description: '… oder ein neuer, mit Einwilligung (genau eins von beiden).',
      }),
      nachricht: Type.Optional(Type.String({ maxLength: 5000 })),
    },
    { additionalProperties: false },
  ),
);
export type InquiryInput = Static<typeof InquiryInputSchema>;

export const InquirySchema = Named(
  'Anfrage',
  Type.Object({
    id: Type.String(),
    immobilie_id: Type.String(),
    interessent_id: Type.String(),
    nachricht: Nullable(Type.String({ description: '`null` nach Löschung oder Anonymisierung des Interessenten.' })),
    bewertung: InquiryScoreSchema,
    bewertet_am: Type.String({
      format: 'date-time',
      description: 'Wann die Bewertung berechnet wurde: beim Eingang und bei jeder Neubewertung.',
    }),
    eingegangen_am: Type.String({ format: 'date-time' }),
    quelle: Nullable(
      Type.String({
        description:
          'Woher die Anfrage kam, wenn nicht über diese API: der Name des Portals (OpenImmo-Feedback `sender/name`, z. B. `ImmoScout24`).',
      }),
    ),
  }),
);
export type Inquiry = Static<typeof InquirySchema>;

export const InquiryParamsSchema = Type.Object({ anfrageId: Type.String() });

export const InquiryListQuerySchema = Type.Composite([
  SeitenQuerySchema,
  Type.Object({ immobilie_id: Type.Optional(Type.String({ maxLength: 100 })) }),
]);
