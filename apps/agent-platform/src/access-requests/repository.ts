import type { Prisma } from '@platform/db';
import { notFound } from '@platform/http';
import { tenantRepository, type ScoreColumns, type ScoreReading } from '@platform/resource';
import type { Explanation } from './scoring.js';

export type AccessRequestRow = Prisma.AccessRequestGetPayload<object>;

export const accessRequestRepository = tenantRepository<AccessRequestRow, ScoreColumns>({
  table: 'access_requests',
  list: 'access-requests',
  model: (db) => db.accessRequest,
  notFound: () => notFound('No access request with this id.'),
});

/** Where the stored total and weights version come from in the model's explanation. */
export const ACCESS_SCORE: ScoreReading<Explanation> = { total: (e) => e.total, version: (e) => e.weights_version };
