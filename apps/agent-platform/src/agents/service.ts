import type { AgentStatus, PrismaClient } from '@platform/db';
import { lockOwnRow, newId } from '@platform/db';
import { ApiError, NEWEST_FIRST, applyMergePatch, changedPaths, compileBodyValidator, cursorPage, notFound, type CursorCodec } from '@platform/http';
import { recordEvent } from '@platform/webhooks';
import { toAgent, toColumns } from './mapping.js';
import { AgentInputSchema, type Agent, type AgentInput, type AgentPatch } from './schemas.js';
import { AGENT_TRANSITIONS, canTransition, type AgentAction } from './transitions.js';

export interface AgentServiceDeps {
  db: PrismaClient;
  cursors: CursorCodec;
  now: () => Date;
}

export interface ListFilter {
  status?: AgentStatus;
  limit: number;
  cursor?: string;
}

const validateInput = compileBodyValidator<AgentInput>(AgentInputSchema);
const NOT_FOUND_MESSAGE = 'No agent with this id.';

export type AgentService = ReturnType<typeof createAgentService>;

/** Agent deployments of one account at a time; every query is scoped by `account_id`. */
export function createAgentService({ db, cursors, now }: AgentServiceDeps) {
  const emit = (tx: Pick<PrismaClient, 'outboxEvent'>, accountId: string, type: string, data: Record<string, unknown>, at: Date) =>
    recordEvent(tx, { accountId, service: 'agents', type, data, now: at });

  async function find(accountId: string, id: string) {
    const row = await db.agentDeployment.findFirst({ where: { id, account_id: accountId } });
    if (!row) throw notFound(NOT_FOUND_MESSAGE);
    return row;
  }

  return {
    async create(accountId: string, input: AgentInput): Promise<Agent> {
      const at = now();
      return db.$transaction(async (tx) => {
        const row = await tx.agentDeployment.create({
          data: { id: newId('agt', at.getTime()), account_id: accountId, ...toColumns(input), created_at: at, updated_at: at },
        });
        await emit(tx, accountId, 'agent.created', { agent_id: row.id, status: row.status }, at);
        return toAgent(row);
      });
    },

    async get(accountId: string, id: string): Promise<Agent> {
      return toAgent(await find(accountId, id));
    },

    list(accountId: string, filter: ListFilter) {
      return cursorPage({
        cursors,
        scope: `agents:${accountId}:${filter.status ?? ''}`,
        cursor: filter.cursor,
        limit: filter.limit,
        fetch: (after, take) =>
          db.agentDeployment.findMany({ where: { account_id: accountId, status: filter.status, ...after }, orderBy: NEWEST_FIRST, take }),
        map: toAgent,
      });
    },

    /**
     * Merge patch on the current input document, validated as a whole (so required fields
     * cannot be cleared), written under a row lock so concurrent patches do not lose fields.
     */
    async update(accountId: string, id: string, patch: AgentPatch): Promise<Agent> {
      return db.$transaction(async (tx) => {
        if (!(await lockOwnRow(tx, 'agent_deployments', id, accountId))) throw notFound(NOT_FOUND_MESSAGE);
        const row = await tx.agentDeployment.findUniqueOrThrow({ where: { id } });
        if (row.status === 'retired') {
          throw new ApiError('conflict', { message: 'A retired agent cannot be changed.' });
        }
        const before = toAgent(row);
        const { id: _id, status: _s, created_at: _c, updated_at: _u, retired_at: _r, ...current } = before;
        const input = applyMergePatch(current, patch, validateInput);
        const at = now();
        const changed = changedPaths(before, toAgent({ ...row, ...(toColumns(input) as Partial<typeof row>) }));
        if (changed.length === 0) return before; // nothing to write, nothing to announce
        const updated = await tx.agentDeployment.update({ where: { id }, data: { ...toColumns(input), updated_at: at } });
        await emit(tx, accountId, 'agent.updated', { agent_id: id, changed_fields: changed }, at);
        return toAgent(updated);
      });
    },

    /** Applies a status action of the transition table; an illegal one is 409 `invalid_transition`. */
    async transition(accountId: string, id: string, action: AgentAction): Promise<Agent> {
      const { from, to } = AGENT_TRANSITIONS[action];
      const at = now();
      return db.$transaction(async (tx) => {
        const result = await tx.agentDeployment.updateMany({
          where: { id, account_id: accountId, status: { in: [...from] } },
          data: { status: to, updated_at: at, ...(to === 'retired' ? { retired_at: at } : {}) },
        });
        const row = await tx.agentDeployment.findFirst({ where: { id, account_id: accountId } });
        if (!row) throw notFound(NOT_FOUND_MESSAGE);
        if (result.count === 0 && !canTransition(action, row.status)) {
          throw new ApiError('invalid_transition', {
            message: `Cannot ${action} an agent in status ${row.status}; allowed from: ${from.join(', ')}.`,
            details: [{ field: 'status', reason: 'not_allowed' }],
          });
        }
        if (result.count === 1) await emit(tx, accountId, 'agent.archived', { agent_id: id, status: 'retired' }, at);
        return toAgent(row);
      });
    },
  };
}
