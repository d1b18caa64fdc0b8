// Bulk redelivery of an endpoint's deliveries (POST /v1/webhooks/{id}/redeliveries) and its
// progress: the same routes in both services (the service shell), so one scenario, run against each.
import { describe, expect, it } from 'vitest';
import { unwrap, type PropertyClient } from '@platform/client';
import { until } from '@platform/testkit';
import type { ContractRun } from '../harness.js';
import { PROPERTY_SERVICE } from './webhooks-and-keys.js';

export function describeRedelivery(
  run: ContractRun,
  target: { service: 'property' | 'agents'; eventType: string } = PROPERTY_SERVICE,
): void {
  const client = () =>
    target.service === 'property' ? run.clients.property : (run.clients.agents as unknown as PropertyClient);

  describe('webhook redelivery', () => {
    it('sends every delivery since a time again, in the worker, with its progress readable until completed', async () => {
      const path = `/redelivery-${target.service}`;
      const created = await unwrap(
        client().POST('/v1/webhooks', {
          body: { url: `${run.receiver.url}${path}`, events: [target.eventType] as never },
        }),
      );
      const webhook = { params: { path: { webhookId: created.id } } };
      const test = await unwrap(client().POST('/v1/webhooks/{webhookId}/test', webhook));
      await until(async () => {
        const page = await unwrap(client().GET('/v1/webhooks/{webhookId}/deliveries', webhook));
        return page.data.find((d) => d.id === test.delivery_id && d.status === 'succeeded');
      }, 20_000);

      const redelivery = await unwrap(
        client().POST('/v1/webhooks/{webhookId}/redeliveries', {
          ...webhook,
          body: { since: created.created_at, status: 'all' },
        }),
      );
      expect(redelivery).toMatchObject({
        webhook_id: created.id,
        selection: { since: created.created_at, status: 'all' },
        counts: { total: 1 },
      });
      const done = await until(async () => {
        const progress = await unwrap(
          client().GET('/v1/webhooks/{webhookId}/redeliveries/{redeliveryId}', {
            params: { path: { webhookId: created.id, redeliveryId: redelivery.id } },
          }),
        );
        return progress.status === 'completed' && progress.counts.succeeded === 1 ? progress : undefined;
      }, 20_000);
      expect(done.counts).toMatchObject({ total: 1, queued: 1, pending: 0, succeeded: 1, failed: 0 });
      const received = await run.receiver.waitFor(2, path, 20_000);
      const eventIds = received.map((r) => (JSON.parse(r.raw.toString()) as { id: string }).id);
      expect(eventIds).toEqual([test.event_id, test.event_id]); // the same event, sent again

      // Only failed ones (the default): none here, completed at once.
      const none = await unwrap(
        client().POST('/v1/webhooks/{webhookId}/redeliveries', { ...webhook, body: { since: created.created_at } }),
      );
      expect(none).toMatchObject({ selection: { status: 'failed' }, counts: { total: 0 } });
      const future = await client().POST('/v1/webhooks/{webhookId}/redeliveries', {
        ...webhook,
        body: { since: new Date(Date.now() + 3_600_000).toISOString() },
      });
      expect(future.response.status).toBe(422);
      expect((await client().DELETE('/v1/webhooks/{webhookId}', webhook)).response.status).toBe(204);
    });
  });
}
