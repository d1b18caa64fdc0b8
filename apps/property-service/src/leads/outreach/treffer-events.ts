import { newIds, type SqlRunner } from '@platform/db';
import type { EventData } from '@platform/webhooks';
import type { PROPERTY_EVENTS } from '../../events.js';
import type { OutreachReason } from './outreach-sql.js';

export const TREFFER_EVENT = 'prospect.matched';

type TrefferData = EventData<typeof PROPERTY_EVENTS, typeof TREFFER_EVENT>;

/**
 * Writes one `prospect.matched` event per announced match into the outbox, in one statement (a
 * property activated in a large account announces thousands at once; `recordEvent` writes one
 * row per call). The payload is built exactly as `recordEvent` builds it: the delivery body.
 */
export async function recordTrefferEvents(
  tx: SqlRunner,
  announced: { accountId: string; propertyId: string; reason: OutreachReason; at: Date },
  matches: { prospect_id: string; score: number }[],
): Promise<void> {
  if (matches.length === 0) return;
  const ids = newIds('evt', matches.length, announced.at.getTime());
  const createdAt = announced.at.toISOString();
  const payloads = matches.map((match, index) => {
    const data: TrefferData = {
      property_id: announced.propertyId,
      interessent_id: match.prospect_id,
      score: match.score,
      anlass: announced.reason,
    };
    return JSON.stringify({ id: ids[index], type: TREFFER_EVENT, created_at: createdAt, data });
  });
  // The outbox belongs to packages/webhooks, which has no batch writer yet (`recordEvent` is one row per call).
  await tx.$executeRawUnsafe(
    // eslint-disable-next-line tables/owner-only
    `INSERT INTO outbox_events (id, account_id, service, type, payload, created_at)
     SELECT id, $2, 'property'::"Service", $3, payload, $4::timestamptz FROM unnest($1::text[], $5::text[]) AS e(id, payload)`,
    ids,
    announced.accountId,
    TREFFER_EVENT,
    announced.at,
    payloads,
  );
}
