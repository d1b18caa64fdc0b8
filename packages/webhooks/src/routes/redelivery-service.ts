import type { PrismaClient } from '@platform/db';
import { ApiError, notFound, validationError } from '@platform/http';
import {
  createRedelivery,
  findRedelivery,
  redeliveryOutcomes,
  type RedeliveryRow,
  type RedeliverySelection,
} from '../redelivery-sql.js';

/** The endpoint, found for the caller (404 / 403 as for every webhook operation). */
type FindEndpoint = (id: string) => Promise<{ id: string; account_id: string; status: string }>;

/** Bulk redeliveries of an endpoint: recorded here, carried out by the relay in batches. */
export function createRedeliveryService(deps: { db: PrismaClient; now: () => Date }) {
  async function view(row: RedeliveryRow) {
    const outcomes = row.queued > 0 ? await redeliveryOutcomes(deps.db, row.id) : {};
    return {
      id: row.id,
      webhook_id: row.endpoint_id,
      selection: { since: row.since.toISOString(), status: row.selection as RedeliverySelection },
      status: row.status,
      counts: {
        total: row.total,
        queued: row.queued,
        pending: (outcomes.pending ?? 0) + (outcomes.held ?? 0),
        succeeded: outcomes.succeeded ?? 0,
        failed: outcomes.failed ?? 0,
      },
      created_at: row.created_at.toISOString(),
      completed_at: row.completed_at?.toISOString() ?? null,
    };
  }

  return {
    async create(findEndpoint: FindEndpoint, webhookId: string, body: { since: string; status?: RedeliverySelection }) {
      const endpoint = await findEndpoint(webhookId);
      const at = deps.now();
      const since = new Date(body.since);
      if (since.getTime() > at.getTime())
        throw validationError([{ field: 'since', reason: 'out_of_range' }], 'since must not be in the future.');
      if (endpoint.status === 'paused')
        throw new ApiError('conflict', {
          message: 'The webhook is paused; resume it first (PATCH status: active): held deliveries are sent then.',
        });
      const result = await createRedelivery(deps.db, {
        endpointId: endpoint.id,
        accountId: endpoint.account_id,
        since,
        selection: body.status ?? 'failed',
        at,
      });
      if (!result.created)
        throw new ApiError('conflict', {
          message: `A redelivery of this webhook is running (${result.running.id}); wait until it is completed.`,
          details: [{ field: 'since', reason: 'overlaps', conflicting_id: result.running.id }],
        });
      return view(result.row);
    },

    async get(findEndpoint: FindEndpoint, webhookId: string, redeliveryId: string) {
      await findEndpoint(webhookId);
      const row = await findRedelivery(deps.db, webhookId, redeliveryId);
      if (!row) throw notFound('No redelivery with this id.');
      return view(row);
    },
  };
}
