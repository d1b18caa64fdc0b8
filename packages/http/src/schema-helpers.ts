import { Kind, Type, type SchemaOptions, type Static, type TSchema, type TUnsafe } from '@sinclair/typebox';
import { READ_ONLY_KEYWORD } from './validation.js';

/** A string enum as `{type: string, enum: [...]}` (one clear error, unlike a union of literals). */
export function StringEnum<const T extends readonly string[]>(values: T, options: SchemaOptions = {}): TUnsafe<T[number]> {
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
  return Type.Unsafe<Static<T> | null>(out);
}

/** Marks fields that exist on the response but must not be written (answered `not_allowed`). */
export function withReadOnly<T extends TSchema>(schema: T, fields: readonly string[]): T {
  return { ...schema, [READ_ONLY_KEYWORD]: [...fields] };
}
