import type { Db, Prisma } from '@platform/db';
import { notFound } from '@platform/http';
import { tenantRepository } from '@platform/resource';

export type EvaluationSessionRow = Prisma.EvaluationSessionGetPayload<object>;

export const sessionRepository = tenantRepository<EvaluationSessionRow, Prisma.EvaluationSessionUncheckedUpdateInput>({
  table: 'evaluation_sessions',
  list: 'evaluation-sessions',
  model: (db) => db.evaluationSession,
  notFound: () => notFound('No evaluation session with this id.'),
});

/** The account's access request, or undefined. */
export function findAccessRequest(db: Db, accountId: string, id: string) {
  return db.accessRequest.findFirst({ where: { id, account_id: accountId }, select: { agent_id: true, team: true } });
}
