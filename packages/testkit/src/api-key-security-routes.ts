import type { SecurityRoute } from './security-suite.js';

/** The `/v1/api-keys` routes for the suite; DELETE points at `mine` (a key of the tenant) and `theirs` (one of another account). */
export function apiKeySecurityRoutes(mine: string, theirs: string, newKey: unknown): SecurityRoute[] {
  return [
    { method: 'GET', url: '/v1/api-keys', scope: 'keys:manage' },
    { method: 'POST', url: '/v1/api-keys', scope: 'keys:manage', body: newKey },
    {
      method: 'DELETE',
      url: `/v1/api-keys/${mine}`,
      otherTenantUrl: `/v1/api-keys/${theirs}`,
      missingUrl: '/v1/api-keys/key_missing',
      scope: 'keys:manage',
    },
    {
      method: 'POST',
      url: `/v1/api-keys/${mine}/roll`,
      otherTenantUrl: `/v1/api-keys/${theirs}/roll`,
      missingUrl: '/v1/api-keys/key_missing/roll',
      scope: 'keys:manage',
      body: { expires_in_hours: 168 },
    },
  ];
}
