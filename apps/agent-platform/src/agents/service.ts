import { inDirectTransaction, inTransaction, type AgentStatus, type Db } from '@platform/db';
import { ApiError, compileBodyValidator } from '@platform/http';
import { definePatch } from '@platform/resource';
import type { ApiContext } from '@platform/service';
import type { AgentPlatformEvents } from '../events.js';
import { rateChanged, toAgent, toColumns } from './mapping.js';
import { changeRate, openRate } from './rates-sql.js';
import { agentRepository, insertAgent } from './repository.js';
import { AgentInputSchema, READ_ONLY_FIELDS, type Agent, type AgentInput, type AgentPatch } from './schemas.js';
import { transitionAgent, type AgentAction } from './transitions.js';

export type AgentServiceDeps = Pick<ApiContext<AgentPlatformEvents>, 'db' | 'cursors' | 'now' | 'emit'> & {
  /** Inside the retiring transaction, after the status change (its catalog entries leave the catalog). */
  onRetired?: (tx: Db, accountId: string, agentId: string, at: Date) => Promise<void>;
};

export interface ListFilter {
  status?: AgentStatus;
  limit: number;
  cursor?: string;
}

const patchAgent = definePatch(agentRepository, {
  readOnly: READ_ONLY_FIELDS,
  validate: compileBodyValidator<AgentInput>(AgentInputSchema),
  toView: toAgent,
  toColumns,
});

export type AgentService = ReturnType<typeof createAgentService>;

/** Agent deployments of one account at a time; every query is scoped by `account_id`. */
export function createAgentService({ db, cursors, now, emit, onRetired }: AgentServiceDeps) {
  return {
    create(accountId: string, input: AgentInput): Promise<Agent> {
      const at = now();
      return inTransaction(db, async (tx) => {
        const row = await insertAgent(tx, accountId, toColumns(input), at);
        await openRate(tx, {
          accountId,
          agentId: row.id,
          amount_cents: row.chargeback_amount_cents,
          unit: row.chargeback_unit,
          at,
        });
        await emit(tx, { accountId, type: 'agent.created', data: { agent_id: row.id, status: row.status }, at });
        return toAgent(row);
      });
    },

    async get(accountId: string, id: string): Promise<Agent> {
      return toAgent(await agentRepository.find(db, accountId, id));
    },

    list(accountId: string, { status, limit, cursor }: ListFilter) {
      return agentRepository.page(db, accountId, { cursors, cursor, limit, filters: { status }, map: toAgent });
    },

    /**
     * Merge patch, validated as a whole, under a row lock; a retired agent cannot be changed. A changed
     * chargeback rate closes the agent's open rate and opens the new one at the time written.
     */
    update(accountId: string, id: string, patch: AgentPatch): Promise<Agent> {
      return inDirectTransaction(db, (tx) =>
        patchAgent(tx, {
          accountId,
          id,
          patch,
          now,
          guard: (row) => {
            if (row.status === 'retired')
              throw new ApiError('conflict', { message: 'A retired agent cannot be changed.' });
          },
          afterWrite: async (changed, row, at) => {
            if (rateChanged(changed))
              await changeRate(tx, {
                accountId,
                agentId: id,
                amount_cents: row.chargeback_amount_cents,
                unit: row.chargeback_unit,
                at,
              });
            await emit(tx, { accountId, type: 'agent.updated', data: { agent_id: id, changed_fields: changed }, at });
          },
        }),
      );
    },

    /** Applies a status action of the transition table; an illegal one is 409 `invalid_transition`. */
    transition(accountId: string, id: string, action: AgentAction): Promise<Agent> {
      const at = now();
      return inTransaction(db, async (tx) =>
        toAgent(
          await transitionAgent(tx, {
            action,
            accountId,
            id,
            at,
            onChanged: async (_row, to) => {
              await emit(tx, { accountId, type: 'agent.archived', data: { agent_id: id, status: 'retired' }, at });
              if (to === 'retired') await onRetired?.(tx, accountId, id, at);
            },
          }),
        ),
      );
    },
  };
}
