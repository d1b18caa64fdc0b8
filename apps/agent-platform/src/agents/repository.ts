import { newId, sql, type ChargebackUnit, type Db, type Prisma, type Sql } from '@platform/db';
import { notFound } from '@platform/http';
import { tenantRepository } from '@platform/resource';
import type { Columns } from './mapping.js';

export type AgentRow = Prisma.AgentDeploymentGetPayload<object>;

export const agentRepository = tenantRepository<AgentRow, Columns & { updated_at: Date }>({
  table: 'agent_deployments',
  list: 'agents',
  model: (db) => db.agentDeployment,
  notFound: () => notFound('No agent with this id.'),
  directSql: {}, // the hottest reads of the platform (bench/RESULTS.md)
});

/** The agents' table, for the status actions of transitions.ts. */
export const agentTable = (db: Db) => db.agentDeployment;

/** Stores a new agent (inside the creating transaction, which also opens its rate). */
export function insertAgent(db: Db, accountId: string, columns: Columns, at: Date): Promise<AgentRow> {
  return db.agentDeployment.create({
    data: { id: newId('agt', at.getTime()), account_id: accountId, ...columns, created_at: at, updated_at: at },
  });
}

/** Other active agents of the account offering at least one of the capabilities. */
export function activeAgentsSharingCapabilities(
  db: Db,
  accountId: string,
  exceptId: string,
  capabilities: string[],
): Promise<AgentRow[]> {
  return db.agentDeployment.findMany({
    where: { account_id: accountId, status: 'active', id: { not: exceptId }, capabilities: { hasSome: capabilities } },
  });
}

/** Active agents of the account offering every one of the capabilities, by id. */
export function activeAgentsWithCapabilities(db: Db, accountId: string, required: string[]): Promise<AgentRow[]> {
  return db.agentDeployment.findMany({
    where: { account_id: accountId, status: 'active', capabilities: { hasEvery: required } },
    orderBy: { id: 'asc' },
  });
}

/** The agent's name (the id is known to exist). */
export async function agentName(db: Db, id: string): Promise<string> {
  const { name } = await db.agentDeployment.findUniqueOrThrow({ where: { id }, select: { name: true } });
  return name;
}

/** Names of the account's agents among `ids`. */
export function agentNames(db: Db, accountId: string, ids: string[]): Promise<{ id: string; name: string }[]> {
  return db.agentDeployment.findMany({
    where: { id: { in: ids }, account_id: accountId },
    select: { id: true, name: true },
  });
}

/** Counts an artifact added or removed (`delta`), under the agent's row lock. */
export async function countArtifacts(db: Db, id: string, delta: number, at: Date): Promise<void> {
  await db.agentDeployment.update({ where: { id }, data: { artifact_count: { increment: delta }, updated_at: at } });
}

/** Units (and validity starts) of the account's rates among `ids`. */
export function ratesByIds(
  db: Db,
  accountId: string,
  ids: string[],
): Promise<{ id: string; unit: Prisma.AgentRateGetPayload<object>['unit']; valid_from: Date }[]> {
  return db.agentRate.findMany({
    where: { id: { in: ids }, account_id: accountId },
    select: { id: true, unit: true, valid_from: true },
  });
}

/** The agent's status and unit under a share lock, so a concurrent retirement waits for the usage batch being stored. */
export async function lockAgentForUsage(
  tx: Db,
  accountId: string,
  agentId: string,
): Promise<{ status: string; chargeback_unit: ChargebackUnit } | null> {
  const rows = await tx.$queryRaw<{ status: string; chargeback_unit: ChargebackUnit }[]>`
    SELECT status::text AS status, chargeback_unit FROM agent_deployments WHERE id = ${agentId} AND account_id = ${accountId} FOR SHARE`;
  return rows[0] ?? null;
}

/** Every agent as rows `(id, account_id, chargeback_unit)` (its current unit), for a join in another owner's SQL. */
export const agentUnits = (): Sql => sql`SELECT id, account_id, chargeback_unit FROM agent_deployments`;
