import type { Db, Prisma } from '@platform/db';
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

/** Stores a new, scored request. */
export function insertAccessRequest(db: Db, data: Prisma.AccessRequestUncheckedCreateInput): Promise<AccessRequestRow> {
  return db.accessRequest.create({ data });
}

/** The agent and capability profile a request is scored on (the request is known to exist). */
export function scoredOn(db: Db, id: string): Promise<{ agent_id: string; profile_id: string }> {
  return db.accessRequest.findUniqueOrThrow({ where: { id }, select: { agent_id: true, profile_id: true } });
}

/** Whether any access request uses the profile. */
export async function profileInUse(db: Db, profileId: string): Promise<boolean> {
  return (await db.accessRequest.count({ where: { profile_id: profileId } })) > 0;
}

/** The account's access request (its agent and team), or undefined. */
export function findAccessRequest(db: Db, accountId: string, id: string) {
  return db.accessRequest.findFirst({ where: { id, account_id: accountId }, select: { agent_id: true, team: true } });
}
