import { assertValid } from './validation.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * JSON merge patch (RFC 7396): absent fields stay, `null` removes a field, objects merge field
 * by field, anything else replaces.
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const result: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = mergePatch(result[key], value);
  }
  return result;
}

/** Removes `null` members recursively (a response's "not set" becomes an absent field). */
export function withoutNulls<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutNulls) as T;
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) if (member !== null) out[key] = withoutNulls(member);
  return out as T;
}

export type { Json };

/**
 * Applies a merge patch to the current input document (response `null`s count as absent) and
 * validates the result as a whole, so a patch can never leave a required field empty.
 */
export function applyMergePatch<T>(current: object, patch: object, validate: (value: unknown) => value is T): T {
  return assertValid(validate, withoutNulls(mergePatch(withoutNulls(current), patch)));
}
