// The key roll as an integrator does it after a leak: roll with 0 hours, the old key is refused
// (401 naming its expiry) at once by the instance that rolled it and within 5 s by every other,
// the successor works with the same scopes.
import { describe, expect, it } from 'vitest';
import { unwrap, type PropertyClient } from '@platform/client';
import { until } from '@platform/testkit';
import type { ContractRun } from '../harness.js';

export function describeKeyRoll(run: ContractRun, service: 'property' | 'agents', readScope: string): void {
  const client = () =>
    service === 'property' ? run.clients.property : (run.clients.agents as unknown as PropertyClient);
  const get = (key: string) => run.recorder.fetch(`${run.urls[service]}/v1/api-keys`, { headers: { apikey: key } });

  describe('API key roll', () => {
    it('rolls a key with 0 hours: the old key gets 401 with its expiry, the successor works with the same scopes', async () => {
      const old = await unwrap(
        client().POST('/v1/api-keys', { body: { scopes: ['keys:manage', readScope] as never } }),
      );
      expect(old).toMatchObject({ age_days: 0, expires_at: null });
      expect((await get(old.key)).status).toBe(200);
      const rolled = await unwrap(
        client().POST('/v1/api-keys/{keyId}/roll', {
          params: { path: { keyId: old.id } },
          body: { expires_in_hours: 0 },
        }),
      );
      expect(rolled.scopes).toEqual(old.scopes);
      expect(rolled.previous).toMatchObject({ id: old.id, rolled_into: rolled.id, expires_at: expect.any(String) });
      // Behind a proxy the next call may reach another instance, which keeps a key it knows for a
      // few seconds (docs/authentication.md: within 5 s on other instances).
      const refused = await until(async () => {
        const res = await get(old.key);
        return res.status === 401 ? res : undefined;
      }, 6_000);
      expect(refused.status).toBe(401);
      expect(await refused.json()).toMatchObject({ code: 'api_key_invalid', message: /expired at/ });
      expect((await get(rolled.key)).status).toBe(200);
      const tooLong = await client().POST('/v1/api-keys/{keyId}/roll', {
        params: { path: { keyId: rolled.id } },
        body: { expires_in_hours: 169 },
      });
      expect(tooLong.response.status).toBe(422);
      expect(
        (await client().DELETE('/v1/api-keys/{keyId}', { params: { path: { keyId: rolled.id } } })).response.status,
      ).toBe(204);
    });
  });
}
