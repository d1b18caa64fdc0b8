import type { SecurityRoute } from '@platform/testkit';

/** The erasure log: a list of the account (another account's records are never in it). */
export const erasureAuditSecurityRoutes = (): SecurityRoute[] => [
  { method: 'GET', url: '/leads/v1/loeschprotokoll', scope: 'leads:read' },
];
