import { Type } from '@sinclair/typebox';
import { CONSTRAINT_KEYS_DE } from './detail-messages.js';
import type { Dialect } from './errors.js';

/**
 * A detail's constraint: an open object in the schema. Its members (`minimum`, `maximum`,
 * `exclusive_minimum`, `exclusive_maximum`, `min_length`, `max_length`, `min_items`, `max_items`,
 * `max_properties`, `allowed`, `pattern`, `format`, `type`, `multiple_of`, `unique_items`,
 * `read_only`, `max_bytes`; German names in CONSTRAINT_KEYS_DE) are named in the description, not
 * as properties: every route's every error status compiles this schema into a serializer, and
 * seventeen optional members in both dialects made each app start several times slower.
 */
const constraintSchema = (dialect: Dialect, description: string) =>
  Type.Optional(
    Type.Object(
      {},
      {
        additionalProperties: true,
        description: `${description} ${dialect === 'en' ? 'Members' : 'Angaben'}: ${Object.keys(CONSTRAINT_KEYS_DE)
          .map((name) => `\`${dialect === 'en' ? name : CONSTRAINT_KEYS_DE[name as keyof typeof CONSTRAINT_KEYS_DE]}\``)
          .join(', ')}.`,
      },
    ),
  );

export const ErrorSchema = Type.Object(
  {
    code: Type.String(),
    message: Type.String(),
    details: Type.Optional(
      Type.Array(
        Type.Object({
          field: Type.String(),
          reason: Type.String(),
          conflicting_id: Type.Optional(
            Type.String({ description: 'With reason `overlaps`: the record already booked at that time.' }),
          ),
          message: Type.Optional(
            Type.String({
              description: 'With `constraint`: what the value must be, in words (`limit must be between 1 and 100.`).',
            }),
          ),
          constraint: constraintSchema(
            'en',
            'The rule the value broke, e.g. `{"minimum": 1, "maximum": 100}`, `{"allowed": ["sale", "rent"]}`, `{"pattern": "^[0-9]{5}$"}`, `{"max_length": 200}`, `{"max_bytes": 1048576}`; only the members that apply.',
          ),
        }),
      ),
    ),
  },
  { $id: 'Error', description: 'Error body: a code, a message and, for invalid input, one detail per problem.' },
);

export const FehlerSchema = Type.Object(
  {
    code: Type.String(),
    message: Type.String(),
    details: Type.Optional(
      Type.Array(
        Type.Object({
          feld: Type.String(),
          grund: Type.String(),
          konflikt_id: Type.Optional(
            Type.String({
              description: 'Bei `ueberschneidet_sich`: der Datensatz, der zu dieser Zeit schon gebucht ist.',
            }),
          ),
          meldung: Type.Optional(
            Type.String({
              description:
                'Mit `vorgabe`: was der Wert sein muss, in Worten (`limit muss zwischen 1 und 100 liegen.`).',
            }),
          ),
          vorgabe: constraintSchema(
            'de',
            'Die verletzte Vorgabe, z. B. `{"minimum": 1, "maximum": 100}`, `{"erlaubt": ["kauf", "miete"]}`, `{"muster": "^[0-9]{5}$"}`, `{"max_laenge": 200}`, `{"max_bytes": 1048576}`; nur die zutreffenden Angaben.',
          ),
        }),
      ),
    ),
  },
  { $id: 'Fehler', description: 'Fehlerkörper der Leads-API: Code, Meldung und je Problem ein Detail.' },
);

const DESCRIPTIONS: Record<number, string> = {
  400: 'Malformed request (invalid JSON, API key in the URL).',
  401: 'API key missing, malformed, unknown, revoked or of another environment or service.',
  403: 'The API key lacks the required scope.',
  404: 'Not found (also for records of other accounts).',
  409: 'Conflict with the current state.',
  413: "Body too large: over 1 MiB, or a file over the route's limit; `details[].constraint.max_bytes` names the limit.",
  415: 'Content type is not application/json.',
  422: 'Validation failed; one detail per problem, with the constraint it broke (`message`, `constraint`).',
  429: 'The application has spent its budget of requests for this minute (one budget for all its keys); retry after `Retry-After` seconds.',
  503: 'The service is briefly unavailable (overloaded, or a dependency is away); retry after `Retry-After` seconds.',
};

const BESCHREIBUNGEN: Record<number, string> = {
  400: 'Fehlerhafte Anfrage (ungültiges JSON, API-Schlüssel in der URL).',
  401: 'API-Schlüssel fehlt, ist fehlerhaft, unbekannt, widerrufen oder gehört zu einer anderen Umgebung oder einem anderen Dienst.',
  403: 'Dem API-Schlüssel fehlt der erforderliche Scope (`scope_fehlt`, der Scope steht in `details[].feld`).',
  404: 'Nicht gefunden (auch für Datensätze anderer Konten).',
  409: 'Konflikt mit dem aktuellen Zustand.',
  413: 'Anfrageinhalt zu groß: über 1 MiB oder eine Datei über der Grenze der Route; `details[].vorgabe.max_bytes` nennt die Grenze.',
  415: 'Inhalt ist nicht application/json.',
  422: 'Validierung fehlgeschlagen; ein Detail je Problem, mit der verletzten Vorgabe (`meldung`, `vorgabe`).',
  429: 'Die Anwendung hat ihr Budget an Anfragen für diese Minute verbraucht (ein Budget für alle ihre Schlüssel); nach `Retry-After` Sekunden erneut versuchen.',
  503: 'Der Dienst ist kurz nicht verfügbar (überlastet, oder eine Abhängigkeit fehlt); nach `Retry-After` Sekunden erneut versuchen.',
};

/** Answers that tell the client when to try again. */
const RETRY_AFTER_STATUSES = new Set([429, 503]);

const retryAfter = (dialect: Dialect) => ({
  'Retry-After': {
    type: 'integer',
    minimum: 1,
    description: dialect === 'en' ? 'Seconds to wait before trying again.' : 'Sekunden bis zum nächsten Versuch.',
  },
});

/** The error responses of an operation, for its schema (and so for OpenAPI), in the dialect's language. */
export function errorResponses(statuses: readonly number[], dialect: Dialect = 'en') {
  const ref = Type.Ref(dialect === 'en' ? 'Error' : 'Fehler');
  const texts = dialect === 'en' ? DESCRIPTIONS : BESCHREIBUNGEN;
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      {
        ...ref,
        description: texts[status] ?? (dialect === 'en' ? 'Error.' : 'Fehler.'),
        ...(RETRY_AFTER_STATUSES.has(status) ? { headers: retryAfter(dialect) } : {}),
      },
    ]),
  );
}

/** Statuses every authenticated operation can answer. */
export const AUTH_ERRORS = [400, 401, 403] as const;

/** Statuses every operation with a JSON body can answer. */
export const BODY_ERRORS = [413, 415, 422] as const;
