// The events API, driven after the scenarios caused events: every event a webhook delivered can be
// found again by its id (the same body), listed with type and time filters, page after page, in
// both services (`/v1/events`) and in the leads API (`/leads/v1/ereignisse`).
import { describe, expect, it } from 'vitest';
import { paginate, unwrap, type PropertyClient } from '@platform/client';
import { until } from '@platform/testkit';
import type { ContractRun } from '../harness.js';

interface DeliveredEvent {
  id: string;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
}

/** The bodies delivered to the receiver's `/<service>` path (every type subscribed), test events aside. */
async function delivered(run: ContractRun, service: 'property' | 'agents', types?: readonly string[]) {
  const bodies = () =>
    run.receiver.received
      .filter((r) => r.path === `/${service}`)
      .map((r) => JSON.parse(r.raw.toString()) as DeliveredEvent)
      .filter((e) => e.type !== 'webhook.test' && (!types || types.includes(e.type)));
  return until(async () => (bodies().length > 0 ? bodies() : undefined), 30_000);
}

export function describeEvents(run: ContractRun, service: 'property' | 'agents'): void {
  // The events routes are the same in both documents but for the enumeration of types.
  const client = () =>
    service === 'property' ? run.clients.property : (run.clients.agents as unknown as PropertyClient);

  describe('events', () => {
    it('finds every delivered event by its id with the delivered body, and lists it page after page', async () => {
      const events = await delivered(run, service);
      const listed = new Set<string>();
      for await (const event of paginate(client(), '/v1/events', { query: { limit: 100 } })) listed.add(event.id);
      expect(events.filter((e) => !listed.has(e.id)).map((e) => e.id)).toEqual([]);
      const [first] = events;
      const read = await unwrap(client().GET('/v1/events/{eventId}', { params: { path: { eventId: first.id } } }));
      expect(read).toEqual(first);
    });

    it('filters by type and by creation time', async () => {
      const [event] = await delivered(run, service);
      const query = { type: [event.type] as never, created_after: event.created_at, limit: 100 };
      const sameType = await unwrap(client().GET('/v1/events', { params: { query } }));
      expect(sameType.data.map((e) => e.id)).toContain(event.id);
      expect(sameType.data.every((e) => e.type === event.type)).toBe(true);
      const before = await unwrap(
        client().GET('/v1/events', {
          params: { query: { ...query, created_after: undefined, created_before: event.created_at } },
        }),
      );
      expect(before.data.map((e) => e.id)).not.toContain(event.id);
    });
  });
}

/** The leads API's events: the inquiry events, with German names. */
export function describeLeadsEvents(run: ContractRun): void {
  describe('Ereignisse', () => {
    it('findet jedes zugestellte Anfrage-Ereignis über seine ID und in der gefilterten Liste', async () => {
      const events = await delivered(run, 'property', ['inquiry.received', 'inquiry.scored']);
      const listed = new Set<string>();
      const query = { typ: ['inquiry.received', 'inquiry.scored'] as never, limit: 100 };
      for await (const event of paginate(run.clients.leads, '/leads/v1/ereignisse', { query })) listed.add(event.id);
      expect(events.filter((e) => !listed.has(e.id)).map((e) => e.id)).toEqual([]);
      const [first] = events;
      const read = await unwrap(
        run.clients.leads.GET('/leads/v1/ereignisse/{ereignisId}', { params: { path: { ereignisId: first.id } } }),
      );
      expect(read).toEqual({ id: first.id, typ: first.type, angelegt_am: first.created_at, daten: first.data });
    });
  });
}
