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

/** Dotted paths of the leaves that differ between two documents (arrays compare as a whole). */
export function changedPaths(before: unknown, after: unknown, prefix = ''): string[] {
  if (!isObject(before) && !isObject(after)) return JSON.stringify(before) === JSON.stringify(after) ? [] : [prefix];
  const a = isObject(before) ? before : {};
  const b = isObject(after) ? after : {};
  const paths = [...new Set([...Object.keys(a), ...Object.keys(b)])].flatMap((key) =>
    changedPaths(a[key], b[key], prefix ? `${prefix}.${key}` : key),
  );
  // an empty object that appeared or disappeared changes the object itself
  return paths.length === 0 && isObject(before) !== isObject(after) ? [prefix] : paths;
}
