import { Type, type Static } from '@sinclair/typebox';
import { Named, Nullable, SeitenQuerySchema, StringEnum } from '@platform/http';
import { ConsentRecordSchema } from '../consent/index.js';
import { InquirySchema } from '../inquiries/index.js';
import { ProspectSchema } from '../prospects/index.js';

const DateTime = (description?: string) => Type.String({ format: 'date-time', ...(description && { description }) });

export const AUSKUNFT_FORMATE = ['json', 'pdf'] as const;
export type AuskunftFormat = (typeof AUSKUNFT_FORMATE)[number];

export const TERMIN_STATUS = ['vorgeschlagen', 'bestaetigt', 'stattgefunden', 'abgesagt'] as const;
export const TERMIN_SEITEN = ['makler', 'interessent'] as const;
export const TREFFER_STATUS = ['angekuendigt', 'verworfen'] as const;
export const TREFFER_ANLAESSE = ['aktivierung', 'preissenkung'] as const;

const Seite = (what: string) =>
  Nullable(StringEnum(TERMIN_SEITEN, { description: `Wer ${what} hat: \`makler\` oder \`interessent\`.` }));

const TerminSchema = Type.Object(
  {
    id: Type.String(),
    immobilie_id: Type.String(),
    anfrage_id: Type.String(),
    status: StringEnum(TERMIN_STATUS),
    beginn: DateTime(),
    ende: DateTime(),
    sequenz: Type.Integer({
      minimum: 0,
      description:
        'Änderungszähler der Kalendereinladung (iCalendar SEQUENCE): steigt mit jeder Verschiebung und der Absage.',
    }),
    fruehere_zeiten: Type.Array(
      Type.Object(
        {
          beginn: DateTime(),
          ende: DateTime(),
          gueltig_bis: DateTime('Wann der Termin von dieser Zeit verschoben wurde.'),
        },
        { additionalProperties: false },
      ),
      { description: 'Frühere Zeiten des Termins vor jeder Verschiebung, älteste zuerst.' },
    ),
    zeitfenster_id: Nullable(
      Type.String({ description: 'Das Besichtigungszeitfenster, in dem der Termin gebucht ist.' }),
    ),
    bestaetigt_von: Seite('bestätigt'),
    bestaetigt_am: Nullable(DateTime()),
    abgesagt_von: Seite('abgesagt'),
    abgesagt_am: Nullable(DateTime()),
    absagegrund: Nullable(Type.String({ description: 'Ein Code (`prospect_declined`, …), nie Freitext.' })),
    stattgefunden_am: Nullable(DateTime()),
    angelegt_am: DateTime(),
  },
  { additionalProperties: false, description: 'Ein Besichtigungstermin (ohne den Namen des Gastgebers: ein Dritter).' },
);

const TrefferSchema = Type.Object(
  {
    immobilie_id: Type.String(),
    punkte: Type.Integer({ minimum: 0, maximum: 100, description: 'Die Übereinstimmung mit dem Suchprofil.' }),
    angebot: Type.String({
      description: 'Der Angebotspreis, zu dem angekündigt wurde, wie gespeichert (`kauf:420000`, `miete:1200`).',
    }),
    anlass: Nullable(
      StringEnum(TREFFER_ANLAESSE, {
        description: 'Warum angekündigt wurde; `null`, wenn der Lauf nicht mehr gespeichert ist.',
      }),
    ),
    status: StringEnum(TREFFER_STATUS, {
      description: '`verworfen`: über der Tagesgrenze von Ankündigungen je Interessent, nicht mitgeteilt.',
    }),
    zeitpunkt: DateTime(),
  },
  {
    additionalProperties: false,
    description: 'Eine passende Immobilie, dem Interessenten angekündigt oder verworfen.',
  },
);

const EreignisSchema = Type.Object(
  {
    id: Type.String(),
    typ: Type.String({ description: 'Der Ereignistyp (`inquiry.received`, `consent.withdrawn`, …).' }),
    zeitpunkt: DateTime(),
    zustellungen: Type.Object(
      {
        zugestellt: Type.Integer({ minimum: 0 }),
        fehlgeschlagen: Type.Integer({ minimum: 0 }),
        ausstehend: Type.Integer({ minimum: 0 }),
      },
      { additionalProperties: false, description: 'Zustellungen an die Webhook-Endpunkte des Kontos, nach Stand.' },
    ),
  },
  { additionalProperties: false },
);

export const AuskunftSchema = Named(
  'Auskunft',
  Type.Object(
    {
      interessent_id: Type.String(),
      erstellt_am: DateTime('Wann diese Auskunft erstellt wurde.'),
      stammdaten: Type.Object(
        {
          vorname: Nullable(Type.String()),
          nachname: Nullable(Type.String()),
          email: Nullable(Type.String()),
          telefon: Nullable(Type.String()),
          angelegt_am: DateTime(),
          aktualisiert_am: DateTime(),
          letzte_aktivitaet_am: DateTime('Anlage oder letzte Anfrage; ab hier läuft die Aufbewahrungsfrist.'),
        },
        { additionalProperties: false },
      ),
      einwilligungen: Type.Array(ConsentRecordSchema, {
        description: 'Jede Einwilligung mit Historie, älteste zuerst.',
      }),
      suchprofil: ProspectSchema.properties.suchprofil,
      anfragen: Type.Array(InquirySchema, {
        description: 'Jede Anfrage mit Bewertung und Begründung, älteste zuerst.',
      }),
      termine: Type.Array(TerminSchema, { description: 'Besichtigungstermine, frühester Beginn zuerst.' }),
      treffer: Type.Array(TrefferSchema, {
        description:
          'Jede zum Suchprofil passende Immobilie, die angekündigt oder verworfen wurde (Treffer), älteste zuerst.',
      }),
      treffer_tageszaehler: Type.Array(
        Type.Object(
          { tag: Type.String({ format: 'date' }), angekuendigt: Type.Integer({ minimum: 0 }) },
          { additionalProperties: false },
        ),
        {
          description:
            'Ankündigungen je Tag des Kontos (für die Tagesgrenze; nur die letzten Tage bleiben gespeichert).',
        },
      ),
      ereignisse: Type.Array(EreignisSchema, {
        description:
          'Gesendete Ereignisse, die den Interessenten, eine seiner Anfragen oder einen seiner Termine nennen (Typ und Zeit, ' +
          'nicht der Inhalt), soweit noch im Ereignisverlauf (30 Tage); älteste zuerst.',
      }),
      aufbewahrung_bis: Type.String({ format: 'date', description: 'Letzter Tag der Aufbewahrungsfrist.' }),
      loeschung_geplant_am: Type.String({
        format: 'date',
        description:
          'Tag der geplanten Anonymisierung (nächtlich nach `aufbewahrung_bis`), falls keine neue Aktivität.',
      }),
      eingeschraenkt_seit: ProspectSchema.properties.eingeschraenkt_seit,
      widerspruch_seit: ProspectSchema.properties.widerspruch_seit,
    },
    {
      additionalProperties: false,
      description: 'Alles, was über einen Interessenten gespeichert ist (Art. 15 und 20 DSGVO).',
    },
  ),
);
export type Auskunft = Static<typeof AuskunftSchema>;

export const AuskunftRecordSchema = Named(
  'Auskunftsprotokolleintrag',
  Type.Object(
    {
      id: Type.String(),
      interessent_id: Type.String(),
      format: StringEnum(AUSKUNFT_FORMATE),
      zeitpunkt: DateTime('Wann die Auskunft erstellt wurde.'),
      veranlasst_durch: Type.Object(
        { anwendung_id: Type.String(), key_id: Type.String() },
        { additionalProperties: false, description: 'Die Anwendung und der API-Key, die die Auskunft abriefen.' },
      ),
    },
    { additionalProperties: false, description: 'Nachweis einer Auskunft, ohne personenbezogene Daten.' },
  ),
);
export type AuskunftRecordView = Static<typeof AuskunftRecordSchema>;

export const AuskunftRecordQuerySchema = Type.Composite([
  SeitenQuerySchema,
  Type.Object({
    interessent_id: Type.Optional(
      Type.String({ maxLength: 100, description: 'Nur die Auskünfte zu diesem Interessenten.' }),
    ),
    von: Type.Optional(DateTime('Einträge ab diesem Zeitpunkt (einschließlich).')),
    bis: Type.Optional(DateTime('Einträge vor diesem Zeitpunkt.')),
  }),
]);
export type AuskunftRecordQuery = Static<typeof AuskunftRecordQuerySchema>;
