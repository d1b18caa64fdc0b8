import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsImport from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { validationError } from './errors.js';
import { READ_ONLY_KEYWORD, mapAjvErrors } from './validation-details.js';

// ajv-formats is CommonJS with a default export.
const addFormats = addFormatsImport as unknown as typeof addFormatsImport.default;

export { READ_ONLY_KEYWORD, mapAjvErrors } from './validation-details.js';

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
