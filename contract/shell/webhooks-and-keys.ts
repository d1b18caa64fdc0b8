// API keys (scopes, 403, revocation) and webhook endpoints with their deliveries: the same routes
// in both services (the service shell), so one scenario, run against each.
import { describe, expect, it } from 'vitest';
import { createAgentPlatformClient, createPropertyClient, unwrap, type PropertyClient } from '@platform/client';
import { until } from '@platform/testkit';
import type { ContractRun } from '../harness.js';

interface ServiceUnderTest {
  service: 'property' | 'agents';
  /** A scope that reads, and a write it does not allow. */
  readScope: string;
  forbiddenWrite: { path: string; body: object };
  eventType: string;
}

export const PROPERTY_SERVICE: ServiceUnderTest = {
  service: 'property',
  readScope: 'properties:read',
  forbiddenWrite: {
    path: '/v1/properties',
    body: { type: 'land', title: 'Nope', address: { postal_code: '10115', city: 'Berlin' } },
  },
  eventType: 'property.archived',
};

export function describeWebhooksAndKeys(run: ContractRun, target: ServiceUnderTest = PROPERTY_SERVICE): void {
  // The shell's routes (/v1/api-keys, /v1/webhooks) are the same in both documents.
  const client = () =>
    target.service === 'property' ? run.clients.property : (run.clients.agents as unknown as PropertyClient);

  describe('API keys', () => {
    it('creates a key with fewer scopes, which gets 403 beyond them, lists and revokes it', async () => {
      const created = await unwrap(client().POST('/v1/api-keys', { body: { scopes: [target.readScope] as never } }));
      const options = {
        baseUrl: run.urls[target.service],
        apiKey: created.key,
        fetch: (request: Request) => run.recorder.fetch(request),
      };
      const narrow =
        target.service === 'property'
          ? createPropertyClient(options)
          : (createAgentPlatformClient(options) as unknown as PropertyClient);
      expect((await narrow.GET('/v1/api-keys', {})).response.status).toBe(403);
      const refused = await run.recorder.fetch(`${run.urls[target.service]}${target.forbiddenWrite.path}`, {
        method: 'POST',
        headers: { apikey: created.key, 'content-type': 'application/json' },
        body: JSON.stringify(target.forbiddenWrite.body),
      });
      expect(refused.status).toBe(403);
      const ids: string[] = [];
      for await (const key of client().apiKeys.list()) ids.push(key.id);
      expect(ids).toContain(created.id);
      expect(
        (await client().DELETE('/v1/api-keys/{keyId}', { params: { path: { keyId: created.id } } })).response.status,
      ).toBe(204);
    });
  });

  describe('webhooks', () => {
    it('creates, lists, reads, changes an endpoint; tests, lists and retries its deliveries; rotates its secret; deletes it', async () => {
      const created = await unwrap(
        client().POST('/v1/webhooks', {
          body: {
            url: `${run.receiver.url}/endpoint-test`,
            events: [target.eventType] as never,
            description: 'contract',
          },
        }),
      );
      const webhook = { params: { path: { webhookId: created.id } } };
      const ids: string[] = [];
      for await (const w of client().webhooks.list()) ids.push(w.id);
      expect(ids).toContain(created.id);
      expect((await unwrap(client().GET('/v1/webhooks/{webhookId}', webhook))).id).toBe(created.id);
      expect(
        (
          await unwrap(
            client().PATCH('/v1/webhooks/{webhookId}', { ...webhook, body: { description: 'contract suite' } }),
          )
        ).description,
      ).toBe('contract suite');
      const test = await unwrap(client().POST('/v1/webhooks/{webhookId}/test', webhook));
      await run.receiver.waitFor(1, '/endpoint-test', 20_000);
      const delivery = await until(async () => {
        const page = await unwrap(client().GET('/v1/webhooks/{webhookId}/deliveries', webhook));
        return page.data.find((d) => d.id === test.delivery_id && d.status === 'succeeded');
      }, 20_000);
      const retried = await client().POST('/v1/webhooks/{webhookId}/deliveries/{deliveryId}/retry', {
        params: { path: { webhookId: created.id, deliveryId: delivery.id } },
      });
      expect(retried.response.status).toBe(202);
      expect(
        (await unwrap(client().POST('/v1/webhooks/{webhookId}/rotate-secret', webhook))).signing_secret,
      ).toBeTruthy();
      expect((await client().DELETE('/v1/webhooks/{webhookId}', webhook)).response.status).toBe(204);
      expect((await client().GET('/v1/webhooks/{webhookId}', webhook)).response.status).toBe(404);
    });
  });
}
