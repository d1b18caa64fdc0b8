// The outbox is written in the transaction of the change it reports: when a real service method
// fails after its domain write (here the outbox INSERT itself fails, through a trigger that
// raises for one account), neither the row nor the event exists, and no job is queued.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, startReceiver, until, type Receiver, type Tenant } from '@platform/testkit';
import { propertyDescriptor } from '../src/descriptor.js';
import { startPropertyApp, validProperty, type PropertyTestContext } from './helpers.js';

let ctx: PropertyTestContext;
let receiver: Receiver;
let stopWorkers: () => Promise<void>;
let victim: Tenant;

beforeAll(async () => {
  ctx = await startPropertyApp();
  receiver = await startReceiver();
  victim = await createTenant(ctx.db.prisma, { service: propertyDescriptor });
  stopWorkers = await ctx.startWebhookDelivery(); // relay and worker run: a committed event would become a job
});
afterAll(async () => {
  await stopWorkers();
  await receiver.close();
  await ctx.close();
});

const jobCount = async () => Object.values(await ctx.webhooks.queue.getJobCounts()).reduce((a, b) => a + b, 0);

describe('a service method that fails after its domain write', () => {
  it('leaves neither the property nor the event, and no queue job', async () => {
    for (const tenant of [ctx.tenant, victim]) {
      const res = await ctx.send(
        'POST',
        '/v1/webhooks',
        { url: `${receiver.url}/${tenant.accountId}`, events: ['property.created', 'property.archived'] },
        tenant.key,
      );
      expect(res.statusCode).toBe(201);
    }
    const before = (await ctx.send('POST', '/v1/properties', validProperty(), victim.key)).json(); // written before the trigger exists
    await receiver.waitFor(1, `/${victim.accountId}`);
    const jobsBefore = await jobCount();

    await ctx.db.query(`
      CREATE FUNCTION outbox_fails_for_marked_account() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.account_id = '${victim.accountId}' THEN RAISE EXCEPTION 'outbox write refused by the test trigger'; END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER outbox_fails_for_marked_account BEFORE INSERT ON outbox_events
        FOR EACH ROW EXECUTE FUNCTION outbox_fails_for_marked_account();`);
    try {
      const created = await ctx.send(
        'POST',
        '/v1/properties',
        { ...validProperty(), title: 'Never stored' },
        victim.key,
      );
      expect(created.statusCode).toBe(500);
      expect(created.json()).toMatchObject({ code: 'internal_error' });
      const archived = await ctx.send('POST', `/v1/properties/${before.id}/archive`, undefined, victim.key);
      expect(archived.statusCode).toBe(500);

      // The control: another account's change commits with its event and is delivered.
      const control = await ctx.send('POST', '/v1/properties', validProperty());
      expect(control.statusCode).toBe(201);
      await receiver.waitFor(1, `/${ctx.tenant.accountId}`);
      await new Promise((resolve) => setTimeout(resolve, 300)); // the relay polls every 20 ms

      expect(await ctx.db.prisma.property.count({ where: { account_id: victim.accountId } })).toBe(1);
      expect(await ctx.db.prisma.property.count({ where: { title: 'Never stored' } })).toBe(0);
      expect((await ctx.db.prisma.property.findUniqueOrThrow({ where: { id: before.id } })).status).toBe('draft'); // the archive was rolled back
      expect(await ctx.db.prisma.outboxEvent.count({ where: { account_id: victim.accountId } })).toBe(1); // the one from before
      expect(await ctx.db.prisma.webhookDelivery.count({ where: { account_id: victim.accountId } })).toBe(1);
      expect(await jobCount()).toBe(jobsBefore + 1); // the control's job only
      expect(receiver.received.filter((r) => r.path === `/${victim.accountId}`)).toHaveLength(1);
      await until(async () => (await ctx.db.prisma.outboxEvent.count({ where: { relayed_at: null } })) === 0);
    } finally {
      await ctx.db.query(
        'DROP TRIGGER outbox_fails_for_marked_account ON outbox_events; DROP FUNCTION outbox_fails_for_marked_account();',
      );
    }
  });
});
