// API keys (scopes, 403, revocation) and webhook endpoints with their deliveries.
import { describe, expect, it } from 'vitest';
import { createPropertyClient, unwrap } from '@platform/client';
import { until } from '@platform/testkit';
import type { ContractRun } from '../harness.js';

export function describeWebhooksAndKeys(run: ContractRun): void {
  const client = () => run.clients.property;

  describe('API keys', () => {
    it('creates a key with fewer scopes, which gets 403 beyond them, lists and revokes it', async () => {
      const created = await unwrap(client().POST('/v1/api-keys', { body: { scopes: ['properties:read'] } }));
      const narrow = createPropertyClient({ baseUrl: run.urls.property, apiKey: created.key, fetch: (request) => run.recorder.fetch(request) });
      expect((await narrow.GET('/v1/properties', {})).response.status).toBe(200);
      const refused = await narrow.POST('/v1/properties', { body: { type: 'land', title: 'Nope', address: { postal_code: '10115', city: 'Berlin' } } });
      expect(refused.response.status).toBe(403);
      const ids: string[] = [];
      for await (const key of client().apiKeys.list()) ids.push(key.id);
      expect(ids).toContain(created.id);
      expect((await client().DELETE('/v1/api-keys/{keyId}', { params: { path: { keyId: created.id } } })).response.status).toBe(204);
    });
  });

  describe('webhooks', () => {
    it('creates, lists, reads, changes an endpoint; tests, lists and retries its deliveries; rotates its secret; deletes it', async () => {
      const created = await unwrap(client().POST('/v1/webhooks', { body: { url: `${run.receiver.url}/endpoint-test`, events: ['property.archived'], description: 'contract' } }));
      const webhook = { params: { path: { webhookId: created.id } } };
      const ids: string[] = [];
      for await (const w of client().webhooks.list()) ids.push(w.id);
      expect(ids).toContain(created.id);
      expect((await unwrap(client().GET('/v1/webhooks/{webhookId}', webhook))).id).toBe(created.id);
      expect((await unwrap(client().PATCH('/v1/webhooks/{webhookId}', { ...webhook, body: { description: 'contract suite' } }))).description).toBe('contract suite');
      const test = await unwrap(client().POST('/v1/webhooks/{webhookId}/test', webhook));
      await run.receiver.waitFor(1, '/endpoint-test', 20_000);
      const delivery = await until(async () => {
        const page = await unwrap(client().GET('/v1/webhooks/{webhookId}/deliveries', webhook));
        return page.data.find((d) => d.id === test.delivery_id && d.status === 'succeeded');
      }, 20_000);
      const retried = await client().POST('/v1/webhooks/{webhookId}/deliveries/{deliveryId}/retry', { params: { path: { webhookId: created.id, deliveryId: delivery.id } } });
      expect(retried.response.status).toBe(202);
      expect((await unwrap(client().POST('/v1/webhooks/{webhookId}/rotate-secret', webhook))).signing_secret).toBeTruthy();
      expect((await client().DELETE('/v1/webhooks/{webhookId}', webhook)).response.status).toBe(204);
      expect((await client().GET('/v1/webhooks/{webhookId}', webhook)).response.status).toBe(404);
    });
  });
}
