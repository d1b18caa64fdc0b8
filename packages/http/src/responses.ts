import { Type } from '@sinclair/typebox';
import type { Dialect } from './errors.js';

export const ErrorSchema = Type.Object(
  {
    code: Type.String(),
    message: Type.String(),
    details: Type.Optional(Type.Array(Type.Object({ field: Type.String(), reason: Type.String() }))),
  },
  { $id: 'Error', description: 'Error body: a code, a message and, for invalid input, one detail per problem.' },
);

export const FehlerSchema = Type.Object(
  {
    code: Type.String(),
    message: Type.String(),
    details: Type.Optional(Type.Array(Type.Object({ feld: Type.String(), grund: Type.String() }))),
  },
  { $id: 'Fehler', description: 'Fehlerkörper der Leads-API: Code, Meldung und je Problem ein Detail.' },
);

const DESCRIPTIONS: Record<number, string> = {
  400: 'Malformed request (invalid JSON, API key in the URL).',
  401: 'API key missing, malformed, unknown, revoked or of another environment or service.',
  403: 'The API key lacks the required scope.',
  404: 'Not found (also for records of other accounts).',
  409: 'Conflict with the current state.',
  413: 'Body too large.',
  415: 'Content type is not application/json.',
  422: 'Validation failed; one detail per problem.',
};

/** The error responses of an operation, for its schema (and so for OpenAPI). */
export function errorResponses(statuses: readonly number[], dialect: Dialect = 'en') {
  const ref = Type.Ref(dialect === 'en' ? 'Error' : 'Fehler');
  return Object.fromEntries(statuses.map((status) => [status, { ...ref, description: DESCRIPTIONS[status] ?? 'Error.' }]));
}

/** Statuses every authenticated operation can answer. */
export const AUTH_ERRORS = [400, 401, 403] as const;

/** Statuses every operation with a JSON body can answer. */
export const BODY_ERRORS = [413, 415, 422] as const;
