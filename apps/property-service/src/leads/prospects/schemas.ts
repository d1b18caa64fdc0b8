import { Type, type Static } from '@sinclair/typebox';
import {
  Named,
  Nullable,
  type Patch,
  PatchSchemaOf,
  SeitenQuerySchema,
  StringEnum,
  withReadOnly,
} from '@platform/http';
import { PROPERTY_TYPES } from '../../properties/index.js';

const Euros = Type.Integer({ minimum: 0, maximum: 2_147_483_647 });

export const ConsentSchema = Named(
  'Einwilligung',
  Type.Object(
    {
      zweck: Type.String({ minLength: 1, maxLength: 500, description: 'Wofür die Einwilligung gilt.' }),
      erteilt_am: Type.String({ format: 'date-time' }),
    },
    { additionalProperties: false, description: 'Nachweis der Einwilligung in die Datenverarbeitung.' },
  ),
);

export const SearchProfileSchema = Named(
  'Suchprofil',
  Type.Object(
    {
      vermarktung: Type.Optional(StringEnum(['kauf', 'miete'], { default: 'kauf', description: 'Kauf oder Miete.' })),
      typ: Type.Optional(
        Type.Array(StringEnum(PROPERTY_TYPES), {
          uniqueItems: true,
          maxItems: PROPERTY_TYPES.length,
          description: 'Gesuchte Objektarten.',
        }),
      ),
      orte: Type.Optional(
        Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
          maxItems: 20,
          description:
            'Orte oder Postleitzahl-Anfänge. Ein Ort findet auch seine Ortsteile („Berlin“ → „Berlin-Mitte“, „Berlin Mitte“); ein Ortsteil nur sich selbst (Bindestrich und Leerzeichen gleichwertig), „Mitte“ allein nichts.',
        }),
      ),
      zimmer_min: Type.Optional(
        Type.Number({ minimum: 0, maximum: 100, multipleOf: 0.5, description: 'In halben Zimmern (2,5 ist erlaubt).' }),
      ),
      kaufpreis_max_eur: Type.Optional(Euros),
      kaltmiete_max_eur: Type.Optional(Euros),
      wohnflaeche_min_qm: Type.Optional(
        Type.Integer({ minimum: 0, maximum: 100_000, description: 'Ganze Quadratmeter.' }),
      ),
      aktiv: Type.Optional(Type.Boolean({ default: true, description: 'Nur aktive Suchprofile werden abgeglichen.' })),
    },
    { additionalProperties: false },
  ),
);

const inputFields = {
  vorname: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  nachname: Type.String({ minLength: 1, maxLength: 100 }),
  email: Type.String({ format: 'email', maxLength: 254 }),
  telefon: Type.Optional(Type.String({ pattern: '^[+0-9 ()/-]{3,40}$' })),
  einwilligung: ConsentSchema,
  suchprofil: Type.Optional(SearchProfileSchema),
};

export const PROSPECT_READ_ONLY = [
  'id',
  'aufbewahrung_bis',
  'angelegt_am',
  'aktualisiert_am',
  'anonymisiert',
  'eingeschraenkt_seit',
  'widerspruch_seit',
] as const;

export const ProspectInputSchema = Named(
  'InteressentAnlegen',
  withReadOnly(Type.Object(inputFields, { additionalProperties: false }), PROSPECT_READ_ONLY),
);
export type ProspectInput = Static<typeof ProspectInputSchema>;

export const ProspectPatchSchema = Named(
  'InteressentAendern',
  PatchSchemaOf(Type.Object(inputFields, { additionalProperties: false }), PROSPECT_READ_ONLY),
);
export type ProspectPatch = Patch<ProspectInput>;

export const ProspectSchema = Named(
  'Interessent',
  Type.Object(
    {
      id: Type.String(),
      vorname: Nullable(Type.String()),
      nachname: Nullable(Type.String({ description: '`null` nach der Anonymisierung.' })),
      email: Nullable(Type.String()),
      telefon: Nullable(Type.String()),
      einwilligung: Nullable(
        Type.Object(
          { zweck: Type.String(), erteilt_am: Type.String({ format: 'date-time' }) },
          {
            description:
              'Die aktuell gültige Einwilligung in Marketing (erteilt, bei Double-Opt-in bestätigt, nicht widerrufen), sonst `null`. ' +
              'Die Historie: `GET …/einwilligungen`.',
          },
        ),
      ),
      suchprofil: Nullable(
        Type.Object({
          vermarktung: StringEnum(['kauf', 'miete']),
          typ: Type.Array(Type.String()),
          orte: Type.Array(Type.String()),
          zimmer_min: Nullable(Type.Number()),
          kaufpreis_max_eur: Nullable(Type.Integer()),
          kaltmiete_max_eur: Nullable(Type.Integer()),
          wohnflaeche_min_qm: Nullable(Type.Number()),
          aktiv: Type.Boolean(),
        }),
      ),
      aufbewahrung_bis: Type.String({
        format: 'date',
        description: 'Aufbewahrungsfrist; danach wird der Datensatz anonymisiert.',
      }),
      angelegt_am: Type.String({ format: 'date-time' }),
      aktualisiert_am: Type.String({ format: 'date-time' }),
      anonymisiert: Type.Boolean({
        description: '`true`: personenbezogene Felder sind `null`, das Suchprofil bleibt als Statistik.',
      }),
      eingeschraenkt_seit: Nullable(
        Type.String({
          format: 'date-time',
          description:
            'Einschränkung der Verarbeitung (Art. 18 DSGVO): kein Matching, keine Ansprache, kein Export, ' +
            'keine neuen Besichtigungstermine (409 in der Termin-API).',
        }),
      ),
      widerspruch_seit: Nullable(
        Type.String({
          format: 'date-time',
          description:
            'Widerspruch gegen Werbung (Art. 21 DSGVO): keine Einwilligung in Marketing mehr, kein Matching.',
        }),
      ),
    },
    { description: 'Ein Interessent.' },
  ),
);
export type Prospect = Static<typeof ProspectSchema>;

export const ProspectParamsSchema = Type.Object({ interessentId: Type.String() });

export const ProspectListQuerySchema = Type.Composite([
  SeitenQuerySchema,
  Type.Object({ suchprofil_aktiv: Type.Optional(Type.Boolean()) }),
]);

export const ErasureSchema = Named(
  'Loeschung',
  Type.Object(
    {
      id: Type.String(),
      status: Type.Literal('geloescht'),
      geloescht_am: Type.String({ format: 'date-time', description: 'Zeitpunkt der (ersten) Löschung.' }),
    },
    { description: 'Bestätigung der Löschung.' },
  ),
);
