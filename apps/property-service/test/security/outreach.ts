import type { SecurityRoute } from '@platform/testkit';

/** The Treffer settings: one record per account, addressed without an id (another account's is never reachable). */
export const outreachSecurityRoutes = (): SecurityRoute[] => [
  { method: 'GET', url: '/leads/v1/einstellungen/treffer', scope: 'leads:read' },
  {
    method: 'PUT',
    url: '/leads/v1/einstellungen/treffer',
    scope: 'leads:write',
    body: { treffer_schwelle: 60, treffer_pro_tag: 2 },
  },
];
