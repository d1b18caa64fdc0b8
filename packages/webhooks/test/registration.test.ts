import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Type } from '@sinclair/typebox';
import { CursorCodec } from '@platform/http';
import type { EventCatalogue } from '../src/catalogue.js';
import { createWebhookService } from '../src/routes/service.js';
import type { SsrfPolicy } from '../src/ssrf.js';
import { startPipeline } from './pipeline.js';

let p: Awaited<ReturnType<typeof startPipeline>>;
const catalogue: EventCatalogue = [
  { type: 'property.created', description: 'A property was created.', scope: 'properties:read', data: Type.Object({}) },
];

beforeAll(async () => {
  p = await startPipeline();
});
afterAll(async () => {
  await p.close();
});

const serviceWith = (policy: SsrfPolicy) =>
  createWebhookService({
    db: p.db.prisma,
    catalogue,
    cursors: new CursorCodec('test'),
    now: () => new Date(),
    service: 'property',
    queue: p.queue,
    secrets: p.secrets,
    policy,
    resolver: async () => [{ address: '127.0.0.1', family: 4 }],
  });

describe('registering an endpoint', () => {
  const caller = () => ({
    accountId: p.tenant.accountId,
    applicationId: p.tenant.applicationId,
    scopes: new Set(['properties:read']),
  });

  it("records the calling application, whose owner hears of the endpoint's failures", async () => {
    const created = await serviceWith({ allowPrivateTargets: true }).create(caller(), {
      url: 'http://127.0.0.1:4000/hooks',
      events: ['property.created'],
    });
    const row = await p.db.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.application_id).toBe(p.tenant.applicationId);
  });

  it('in a sandbox, refuses a local target with a message naming WEBHOOK_ALLOW_PRIVATE_TARGETS=true', async () => {
    for (const url of ['http://127.0.0.1:4000/hooks', 'https://127.0.0.1:4443/hooks', 'https://localhost:4443/hooks']) {
      const refusal = serviceWith({ allowPrivateTargets: false, sandbox: true }).create(caller(), {
        url,
        events: ['property.created'],
      });
      await expect(refusal).rejects.toMatchObject({
        code: 'validation_failed',
        details: [{ field: 'url', reason: 'not_allowed' }],
        message: expect.stringContaining('set WEBHOOK_ALLOW_PRIVATE_TARGETS=true'),
      });
    }
  });

  it('in production, the same refusals never mention the setting', async () => {
    for (const url of ['http://127.0.0.1:4000/hooks', 'https://127.0.0.1:4443/hooks', 'https://localhost:4443/hooks']) {
      const refusal = serviceWith({ allowPrivateTargets: false }).create(caller(), {
        url,
        events: ['property.created'],
      });
      await expect(refusal).rejects.toMatchObject({
        code: 'validation_failed',
        message: expect.not.stringContaining('WEBHOOK_ALLOW_PRIVATE_TARGETS'),
      });
    }
  });
});
