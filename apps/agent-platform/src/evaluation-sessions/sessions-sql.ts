import type { Db } from '@platform/db';

/**
 * Locks the agent's open (proposed or confirmed) sessions and returns their ids, earliest first.
 * A session changed meanwhile by a concurrent request is re-checked after the wait, so one
 * cancelled or completed just before is skipped rather than cancelled again.
 */
export async function lockOpenSessionsOfAgent(tx: Db, accountId: string, agentId: string): Promise<string[]> {
  const rows = await tx.$queryRawUnsafe<{ id: string }[]>(
    `SELECT id FROM evaluation_sessions WHERE account_id = $1 AND agent_id = $2 AND status IN ('proposed', 'confirmed') ORDER BY starts_at, id FOR UPDATE`,
    accountId,
    agentId,
  );
  return rows.map((row) => row.id);
}
