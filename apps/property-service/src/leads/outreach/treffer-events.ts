import type { SqlRunner } from '@platform/db';
import { recordEvents, type EventData } from '@platform/webhooks';
import type { PROPERTY_EVENTS } from '../../events.js';
import type { OutreachReason } from './outreach-sql.js';

export const TREFFER_EVENT = 'prospect.matched';

type TrefferData = EventData<typeof PROPERTY_EVENTS, typeof TREFFER_EVENT>;

/**
 * Writes one `prospect.matched` event per announced match into the outbox, in one statement (a
 * property activated in a large account announces thousands at once).
 */
export async function recordTrefferEvents(
  tx: SqlRunner,
  announced: { accountId: string; propertyId: string; reason: OutreachReason; at: Date },
  matches: { prospect_id: string; score: number }[],
): Promise<void> {
  await recordEvents(
    tx,
    matches.map((match) => {
      const data: TrefferData = {
        property_id: announced.propertyId,
        interessent_id: match.prospect_id,
        score: match.score,
        anlass: announced.reason,
      };
      return { accountId: announced.accountId, service: 'property', type: TREFFER_EVENT, data, now: announced.at };
    }),
  );
}
