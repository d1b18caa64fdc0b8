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

/** A session by id alone (read again after an action). */
export const loadSession = (db: Db, id: string) => db.evaluationSession.findUniqueOrThrow({ where: { id } });

/** Stores a new session. */
export function insertSession(
  db: Db,
  data: Prisma.EvaluationSessionUncheckedCreateInput,
): Promise<EvaluationSessionRow> {
  return db.evaluationSession.create({ data });
}
