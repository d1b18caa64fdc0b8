import type { Service } from '@platform/db';

/** Scopes per service: the spec's tables plus `keys:manage` for self-service key rotation. */
export const SCOPES = {
  property: [
    'properties:read',
    'properties:write',
    'listings:read',
    'listings:write',
    'leads:read',
    'leads:write',
    'appointments:write',
    'valuations:read',
    'commissions:read',
    'keys:manage',
  ],
  agents: [
    'agents:read',
    'agents:write',
    'catalog:read',
    'catalog:write',
    'requests:read',
    'requests:write',
    'sessions:write',
    'estimates:read',
    'chargebacks:read',
    'keys:manage',
  ],
} as const satisfies Record<Service, readonly string[]>;

export type Scope<S extends Service = Service> = (typeof SCOPES)[S][number];

/** Returns the scopes that the service does not know (empty when all are valid). */
export function unknownScopes(service: Service, scopes: readonly string[]): string[] {
  const known: readonly string[] = SCOPES[service];
  return scopes.filter((scope) => !known.includes(scope));
}
