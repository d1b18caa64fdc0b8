import type { ErrorObject } from 'ajv';
import type { Constraint } from './detail-messages.js';
import type { ErrorDetail, Reason } from './errors.js';

/** Schema keyword listing fields a client may read but never write (answered `not_allowed`). */
export const READ_ONLY_KEYWORD = 'x-read-only';

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

/** Maps Ajv errors to details with dotted paths, the closed set of reasons and the rule broken. */
export function mapAjvErrors(errors: readonly ErrorObject[], prefix = ''): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const seen = new Set<string>();
  const literalUnions = literalUnionsOf(errors);
  const inLiteralUnion = (error: ErrorObject) =>
    [...literalUnions.keys()].some((union) => error.schemaPath.startsWith(`${union}/`));
  for (const error of errors) {
    let detail: ErrorDetail;
    if (error.keyword === 'required') {
      const missing = (error.params as { missingProperty: string }).missingProperty;
      detail = { field: dottedPath(error.instancePath, prefix, missing), reason: 'missing' };
    } else if (error.keyword === 'additionalProperties') {
      const extra = (error.params as { additionalProperty: string }).additionalProperty;
      const readOnly = (error.parentSchema as Record<string, unknown> | undefined)?.[READ_ONLY_KEYWORD];
      const field = dottedPath(error.instancePath, prefix, extra);
      detail =
        Array.isArray(readOnly) && readOnly.includes(extra)
          ? { field, reason: 'not_allowed', constraint: { read_only: true } }
          : { field, reason: 'unknown_field' };
    } else if (literalUnions.has(error.schemaPath)) {
      // A union of literals (`Type.Union([Type.Literal('a'), ...])`): one detail naming every value.
      detail = {
        field: dottedPath(error.instancePath, prefix),
        reason: 'not_allowed',
        constraint: { allowed: literalUnions.get(error.schemaPath)! },
      };
    } else if (inLiteralUnion(error) || ['if', 'anyOf', 'oneOf'].includes(error.keyword)) {
      continue; // their branches report the concrete problem (or the union above sums them up)
    } else {
      detail = {
        field: dottedPath(error.instancePath, prefix),
        reason: reasonOf(error),
        ...(constraintOf(error) ? { constraint: constraintOf(error) } : {}),
      };
    }
    const key = `${detail.field}|${detail.reason}`;
    if (!seen.has(key)) {
      seen.add(key);
      details.push(detail);
    }
  }
  // A value of the wrong type (null included) also fails its enum or format; the type is the one
  // problem to report.
  const isTypeProblem = (d: ErrorDetail) =>
    d.reason === 'invalid_type' || (d.reason === 'missing' && d.constraint?.type !== undefined);
  const wrongType = new Set(details.filter(isTypeProblem).map((d) => d.field));
  return details.filter((d) => isTypeProblem(d) || !wrongType.has(d.field));
}

/**
 * `null` for a member that cannot be null is `missing` (docs/errors.md): in a merge patch it
 * would clear a field that must have a value. `null` as the whole body or as a list item is a
 * wrong type.
 */
function reasonOf(error: ErrorObject): Reason {
  const isMember = error.instancePath !== '' && !/\/\d+$/.test(error.instancePath);
  if (error.keyword === 'type' && error.data === null && isMember) return 'missing';
  return REASON_BY_KEYWORD[error.keyword] ?? 'invalid_format';
}

type SchemaBounds = Record<string, unknown>;
const numberAt = (schema: SchemaBounds | undefined, key: string) =>
  typeof schema?.[key] === 'number' ? schema[key] : undefined;

/** Both bounds of the schema, so `limit=1000` learns `1–100`, not only the bound it crossed. */
function boundsOf(schema: SchemaBounds | undefined, keys: Record<string, string>): Constraint {
  const constraint: Record<string, number> = {};
  for (const [keyword, member] of Object.entries(keys)) {
    const value = numberAt(schema, keyword);
    if (value !== undefined) constraint[member] = value;
  }
  return constraint as Constraint;
}

function constraintOf(error: ErrorObject): Constraint | undefined {
  const parent = error.parentSchema as SchemaBounds | undefined;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type':
      return { type: error.schema as string | string[] };
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return boundsOf(parent, {
        minimum: 'minimum',
        maximum: 'maximum',
        exclusiveMinimum: 'exclusive_minimum',
        exclusiveMaximum: 'exclusive_maximum',
      });
    case 'minLength':
    case 'maxLength':
      return boundsOf(parent, { minLength: 'min_length', maxLength: 'max_length' });
    case 'minItems':
    case 'maxItems':
      return boundsOf(parent, { minItems: 'min_items', maxItems: 'max_items' });
    case 'maxProperties':
      return { max_properties: params.limit as number };
    case 'enum':
      return { allowed: params.allowedValues as unknown[] };
    case 'const':
      return { allowed: [params.allowedValue] };
    case 'pattern':
      return { pattern: params.pattern as string };
    case 'format':
      return { format: params.format as string };
    case 'multipleOf':
      return { multiple_of: params.multipleOf as number };
    case 'uniqueItems':
      return { unique_items: true };
    default:
      return undefined;
  }
}

/** A branch of a union that is a value, not a type: a literal, an enumeration or `null`. */
const isLiteral = (branch: SchemaBounds) =>
  'const' in branch || Array.isArray(branch.enum) || (branch.type === 'null' && Object.keys(branch).length === 1);

/** `anyOf` errors whose branches are all literals (or null), by schema path → the values allowed. */
function literalUnionsOf(errors: readonly ErrorObject[]): Map<string, unknown[]> {
  const unions = new Map<string, unknown[]>();
  for (const error of errors) {
    if (error.keyword !== 'anyOf' || !Array.isArray(error.schema)) continue;
    const branches = error.schema as SchemaBounds[];
    if (!branches.every(isLiteral)) continue;
    unions.set(
      error.schemaPath,
      branches.flatMap((b) => ('const' in b ? [b.const] : Array.isArray(b.enum) ? (b.enum as unknown[]) : [null])),
    );
  }
  return unions;
}
