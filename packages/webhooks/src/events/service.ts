import type { Db, Service } from '@platform/db';
import { ApiError, cursorPage, validationError, type CursorCodec } from '@platform/http';
import type { EventCatalogue } from '../catalogue.js';
import { DELIVERY_HISTORY_DAYS } from '../history-sql.js';
import { findEvent, findEvents, type StoredEvent } from './events-sql.js';
import { missingScopesFor, readableEventTypes } from './readable.js';

export interface EventServiceDeps {
  db: Db;
  /** The event types this API shows (a service's whole catalogue, or the part an extra API is about). */
  catalogue: EventCatalogue;
  cursors: CursorCodec;
  now: () => Date;
  service: Service;
}

export interface EventCaller {
  accountId: string;
  scopes: ReadonlySet<string>;
}

/** The neutral list query; routes translate their dialect's parameter names into it. */
export interface EventQuery {
  limit: number;
  cursor?: string;
  types?: string[];
  createdAfter?: string;
  createdBefore?: string;
}

/** What an error names a query parameter in the route's dialect. */
export interface EventQueryNames {
  createdBefore: string;
}

/** The webhook delivery body: an event from the API is the same JSON as the one delivered. */
export interface EventBody {
  id: string;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
}

export type EventService = ReturnType<typeof createEventService>;

const DAY_MS = 86_400_000;
const toEvent = (row: StoredEvent) => JSON.parse(row.payload) as EventBody;

/**
 * The events of one account and service for the retention period (the webhook history's): a key
 * sees only the event types whose data its scopes may read; asking for others is 403.
 */
export function createEventService(deps: EventServiceDeps, names: EventQueryNames) {
  const { db, catalogue, service } = deps;
  const retentionStart = () => new Date(deps.now().getTime() - DELIVERY_HISTORY_DAYS * DAY_MS);

  function requireScopes(caller: EventCaller, types: readonly string[]): void {
    const missing = missingScopesFor(catalogue, caller.scopes, types);
    if (missing.length === 0) return;
    throw new ApiError('scope_missing', {
      message: 'A key can only read events whose data it may read.',
      messageDe: 'Ein Schlüssel kann nur Ereignisse lesen, deren Daten er lesen darf.',
      details: missing.map((scope) => ({ field: scope, reason: 'not_granted' as const })),
    });
  }

  return {
    list(caller: EventCaller, query: EventQuery) {
      if (query.types) requireScopes(caller, query.types);
      const types = query.types ?? readableEventTypes(catalogue, caller.scopes);
      const after = query.createdAfter ? new Date(query.createdAfter) : undefined;
      const before = query.createdBefore ? new Date(query.createdBefore) : undefined;
      if (after && before && before <= after) {
        throw validationError(
          [{ field: names.createdBefore, reason: 'out_of_range' }],
          'created_before must be later than created_after.',
          'angelegt_vor muss nach angelegt_ab liegen.',
        );
      }
      const cutoff = retentionStart();
      const from = after && after > cutoff ? after : cutoff;
      return cursorPage({
        cursors: deps.cursors,
        // A cursor belongs to one list: the account, the types shown and the time filters.
        scope: `events:${caller.accountId}:${service}:${[...types].sort().join(',')}:${query.createdAfter ?? ''}:${query.createdBefore ?? ''}`,
        cursor: query.cursor,
        limit: query.limit,
        fetch: async (_where, take, position) =>
          types.length === 0
            ? []
            : findEvents(db, { accountId: caller.accountId, service, types, from, before, after: position, take }),
        map: toEvent,
      });
    },

    /** Another account's event, one older than the retention or of a type this API does not show: 404. */
    async get(caller: EventCaller, id: string) {
      const row = await findEvent(db, { id, accountId: caller.accountId, service, from: retentionStart() });
      if (!row || !catalogue.some((e) => e.type === row.type)) {
        throw new ApiError('not_found', {
          message: 'No event with this id.',
          messageDe: 'Kein Ereignis mit dieser ID.',
        });
      }
      requireScopes(caller, [row.type]);
      return toEvent(row);
    },
  };
}
