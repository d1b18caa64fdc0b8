import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsImport from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { ErrorDetail, Reason } from './errors.js';
import { validationError } from './errors.js';

// ajv-formats is CommonJS with a default export.
const addFormats = addFormatsImport as unknown as typeof addFormatsImport.default;

/** Schema keyword listing fields a client may read but never write (answered `not_allowed`). */
export const READ_ONLY_KEYWORD = 'x-read-only';

function createAjv(options: { coerce: boolean }): Ajv {
  const ajv = new Ajv({
    allErrors: true, // one detail per problem; body size is capped, so this stays cheap
    coerceTypes: options.coerce ? 'array' : false,
    useDefaults: options.coerce, // query defaults (limit=25); body defaults live in the database
    removeAdditional: false,
    allowUnionTypes: true,
    verbose: true, // errors carry their parent schema, for the read-only keyword
    strict: 'log',
  });
  addFormats(ajv, ['email', 'uri', 'uuid']);
  ajv.addFormat('date', isStorableDate);
  ajv.addFormat('date-time', isStorableDateTime);
  ajv.addKeyword({ keyword: READ_ONLY_KEYWORD, schemaType: 'array' });
  return ajv;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/** A real calendar date in years 1000–9999 (PostgreSQL and our clients agree on those). */
function isStorableDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1000) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * RFC 3339 date-time with a storable date, written and in UTC: `9999-12-31T23:59:59-23:59` is
 * year 10000 in UTC, which PostgreSQL stores but the database driver cannot read back.
 */
function isStorableDateTime(value: string): boolean {
  const match = DATE_TIME.exec(value);
  if (!match || !isStorableDate(match[1])) return false;
  if (!(Number(match[2]) < 24 && Number(match[3]) < 60 && Number(match[4]) < 60)) return false;
  const utcYear = new Date(value).getUTCFullYear();
  return utcYear >= 1000 && utcYear <= 9999;
}

const bodyAjv = createAjv({ coerce: false });
const queryAjv = createAjv({ coerce: true });

/**
 * Bodies are validated strictly (no type coercion: `"3"` is not a number, unknown fields are
 * refused, not dropped); query strings and path parameters are coerced from text. Unknown query
 * parameters are refused too (`unknown_field`): a misspelt filter must not return the whole list.
 */
export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) => {
  if (httpPart === 'body') return bodyAjv.compile(schema) as ValidateFunction;
  const strict =
    httpPart === 'querystring' && (schema as { additionalProperties?: unknown }).additionalProperties === undefined;
  return queryAjv.compile(strict ? { ...schema, additionalProperties: false } : schema) as ValidateFunction;
};

/** Compiles a schema with the body rules, for validating merged documents in services. */
export function compileBodyValidator<T>(schema: object): (value: unknown) => value is T {
  return bodyAjv.compile(schema) as unknown as (value: unknown) => value is T;
}

/** Validates with a body validator and throws `validation_failed` with mapped details. */
export function assertValid<T>(validate: (value: unknown) => value is T, value: unknown, prefix = ''): T {
  if (validate(value)) return value;
  const errors = (validate as unknown as ValidateFunction).errors ?? [];
  throw validationError(mapAjvErrors(errors, prefix));
}

const REASON_BY_KEYWORD: Record<string, Reason> = {
  required: 'missing',
  type: 'invalid_type',
  format: 'invalid_format',
  pattern: 'invalid_format',
  maxLength: 'too_long',
  maxItems: 'too_long',
  maxProperties: 'too_long',
  minLength: 'out_of_range',
  minItems: 'out_of_range',
  minimum: 'out_of_range',
  maximum: 'out_of_range',
  exclusiveMinimum: 'out_of_range',
  exclusiveMaximum: 'out_of_range',
  multipleOf: 'invalid_format',
  enum: 'not_allowed',
  const: 'not_allowed',
  uniqueItems: 'invalid_format',
  additionalProperties: 'unknown_field',
};

/** `/address/postal_code` → `address.postal_code`; `prefix` names the request part if needed. */
function dottedPath(instancePath: string, prefix: string, child?: string): string {
  const parts = instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (child !== undefined) parts.push(child);
  const path = parts.join('.');
  return path || prefix || 'body';
}

/** Maps Ajv errors to details with dotted paths and the closed set of reasons. */
export function mapAjvErrors(errors: readonly ErrorObject[], prefix = ''): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    let detail: ErrorDetail;
    if (error.keyword === 'required') {
      const missing = (error.params as { missingProperty: string }).missingProperty;
      detail = { field: dottedPath(error.instancePath, prefix, missing), reason: 'missing' };
    } else if (error.keyword === 'additionalProperties') {
      const extra = (error.params as { additionalProperty: string }).additionalProperty;
      const readOnly = (error.parentSchema as Record<string, unknown> | undefined)?.[READ_ONLY_KEYWORD];
      const reason: Reason = Array.isArray(readOnly) && readOnly.includes(extra) ? 'not_allowed' : 'unknown_field';
      detail = { field: dottedPath(error.instancePath, prefix, extra), reason };
    } else if (error.keyword === 'if' || error.keyword === 'anyOf' || error.keyword === 'oneOf') {
      continue; // their branches report the concrete problem
    } else {
      detail = {
        field: dottedPath(error.instancePath, prefix),
        reason: REASON_BY_KEYWORD[error.keyword] ?? 'invalid_format',
      };
    }
    const key = `${detail.field}|${detail.reason}`;
    if (!seen.has(key)) {
      seen.add(key);
      details.push(detail);
    }
  }
  // A value of the wrong type also fails its enum or format; the type is the one problem to report.
  const wrongType = new Set(details.filter((d) => d.reason === 'invalid_type').map((d) => d.field));
  return details.filter((d) => d.reason === 'invalid_type' || !wrongType.has(d.field));
}
