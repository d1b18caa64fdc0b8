import type { Service } from '@platform/db';

/**
 * What the key mechanism needs to know of a service; each app declares it in its descriptor.
 * Packages never name a service themselves.
 */
export interface KeyOwner {
  id: Service;
  /** First part of its keys, e.g. `pm` → `pm_test_…`. */
  keyPrefix: string;
  /** How messages name the service (a key of another service says whose it is). */
  names: { en: string; de: string };
  /** Every scope the service knows (the spec's table plus `keys:manage`). */
  scopes: readonly string[];
}

/** Returns the scopes that the service does not know (empty when all are valid). */
export function unknownScopes(owner: Pick<KeyOwner, 'scopes'>, scopes: readonly string[]): string[] {
  return scopes.filter((scope) => !owner.scopes.includes(scope));
}
