import {
  Kind,
  Type,
  type SchemaOptions,
  type Static,
  type TObject,
  type TSchema,
  type TUnsafe,
} from '@sinclair/typebox';
import { READ_ONLY_KEYWORD } from './validation.js';

/** A string enum as `{type: string, enum: [...]}` (one clear error, unlike a union of literals). */
export function StringEnum<const T extends readonly string[]>(
  values: T,
  options: SchemaOptions = {},
): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ ...options, type: 'string', enum: [...values] });
}

/**
 * `schema` or `null`, written as a type array rather than `anyOf`, so that a wrong value gives
 * one error and not one per branch.
 */
export function Nullable<T extends TSchema>(schema: T): TUnsafe<Static<T> | null> {
  const raw = schema as unknown as Record<string | symbol, unknown>;
  const type = raw.type;
  const out: Record<string, unknown> = { ...raw, type: Array.isArray(type) ? [...type, 'null'] : [type, 'null'] };
  if (Array.isArray(raw.enum)) out.enum = [...(raw.enum as unknown[]), null];
  delete out[Kind as unknown as string];
  delete out.title; // `schema` or null is not the named schema itself
  return Type.Unsafe<Static<T> | null>(out);
}

/**
 * The schema with a `title`: in the OpenAPI document it becomes `components.schemas.<title>`,
 * referenced by `$ref` wherever it is used (`nameTitledSchemas`). Validation and serialization
 * ignore the title.
 */
export function Named<T extends TSchema>(title: string, schema: T): T {
  return { ...schema, title };
}

/** Marks fields that exist on the response but must not be written (answered `not_allowed`). */
export function withReadOnly<T extends TSchema>(schema: T, fields: readonly string[]): T {
  return { ...schema, [READ_ONLY_KEYWORD]: [...fields] };
}

/** The type of a merge-patch body for an input type (see `PatchSchemaOf`). */
export type Patch<T> = {
  [K in keyof T]?:
    | (T[K] extends readonly unknown[] ? T[K] : T[K] extends object ? Patch<T[K]> : T[K])
    | (undefined extends T[K] ? null : never);
};

/**
 * The JSON merge-patch body for an input object schema: every field optional; optional fields
 * may be `null` (cleared); required ones may be changed but not cleared (`null` is `missing`,
 * with the type to send); nested objects are patches themselves; arrays are replaced; read-only
 * fields stay refused.
 */
export function PatchSchemaOf<T extends TObject>(
  schema: T,
  readOnly: readonly string[] = [],
): TUnsafe<Patch<Static<T>>> {
  return Type.Unsafe<Patch<Static<T>>>(withReadOnly(patchOf(schema), readOnly));
}

function patchOf(schema: TObject): TSchema {
  const required = new Set(schema.required ?? []);
  const properties: Record<string, TSchema> = {};
  for (const [name, member] of Object.entries(schema.properties)) {
    const { default: _default, ...rest } = member; // an absent field stays as it is; it takes no default
    const inner = member.type === 'object' ? patchOf(member as TObject) : (rest as TSchema);
    properties[name] = Type.Optional(required.has(name) ? inner : Nullable(inner));
  }
  return Type.Object(properties, { additionalProperties: false, description: schema.description });
}

/** Body of action routes: none, `{}` or `null`; any field is refused as `unknown_field`. */
export const EmptyBodySchema = Nullable(
  Type.Object({}, { additionalProperties: false, description: 'No body, or an empty object.' }),
);
