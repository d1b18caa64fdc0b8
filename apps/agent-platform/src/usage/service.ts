import { inTransaction, newIds } from '@platform/db';
import { ApiError, notFound, validationError, type ErrorDetail } from '@platform/http';
import type { ApiContext } from '@platform/service';
import { lockAgentForUsage } from '../agents/index.js';
import type { AgentPlatformEvents } from '../events.js';
import { USAGE_CLOCK_SKEW_MS, type UsageBatch, type UsageResult } from './schemas.js';
import { insertUsage, type UsageRow } from './usage-sql.js';

export type UsageServiceDeps = Pick<ApiContext<AgentPlatformEvents>, 'db' | 'now'>;
export type UsageService = ReturnType<typeof createUsageService>;

/** `quantity` with at most six decimals as fixed-point text, or null when it has more. */
export function fixedQuantity(quantity: number): string | null {
  const text = quantity.toFixed(6);
  return Number(text) === quantity ? text : null;
}

/** Usage of agents per consuming team; a batch is validated as a whole and stored in one statement. */
export function createUsageService({ db, now }: UsageServiceDeps) {
  return {
    ingest(accountId: string, agentId: string, { records }: UsageBatch): Promise<UsageResult> {
      const at = now();
      return inTransaction(db, async (tx) => {
        const agent = await lockAgentForUsage(tx, accountId, agentId);
        if (!agent) throw notFound('No agent with this id.');
        if (agent.status === 'retired')
          throw new ApiError('conflict', { message: 'A retired agent accepts no usage.' });
        const details: ErrorDetail[] = [];
        const latest = at.getTime() + USAGE_CLOCK_SKEW_MS;
        const ids = newIds('use', records.length, at.getTime());
        const rows: UsageRow[] = records.map((record, i) => {
          const quantity = fixedQuantity(record.quantity);
          if (quantity === null) details.push({ field: `records.${i}.quantity`, reason: 'invalid_format' });
          if (record.unit !== agent.chargeback_unit)
            details.push({ field: `records.${i}.unit`, reason: 'not_allowed' });
          const occurred = Date.parse(record.occurred_at);
          if (!(occurred <= latest)) details.push({ field: `records.${i}.occurred_at`, reason: 'out_of_range' });
          return {
            id: ids[i],
            client_id: record.client_id,
            team: record.team,
            quantity: quantity ?? '0',
            occurred_at: record.occurred_at,
          };
        });
        if (details.length > 0) {
          throw validationError(
            details,
            `Invalid usage records: quantities need at most six decimals, the unit must be the agent’s chargeback unit (${agent.chargeback_unit}), occurred_at at most 5 minutes in the future.`,
          );
        }
        const accepted = await insertUsage(tx, accountId, agentId, agent.chargeback_unit, at, rows);
        return { accepted, duplicates: rows.length - accepted };
      });
    },
  };
}
