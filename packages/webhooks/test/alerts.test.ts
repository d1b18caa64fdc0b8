import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateApplication } from '@platform/auth';
import { newId } from '@platform/db';
import { startReceiver, startSmtpSink, until, whileHeld, type SmtpSink } from '@platform/testkit';
import { sendEndpointAlerts } from '../src/alerts.js';
import { attemptDelivery } from '../src/delivery.js';
import { pauseEndpoint } from '../src/endpoint-ops.js';
import { recordEvent } from '../src/outbox.js';
import { relayOnce } from '../src/relay.js';
import { startRelay } from '../src/worker.js';
import { startPipeline } from './pipeline.js';

let p: Awaited<ReturnType<typeof startPipeline>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let sink: SmtpSink;
const HOUR = 3_600_000;
const OWNER = 'owner@example.com';
const lines: string[] = [];
const smtpSettings = () => ({
  smtp: { url: sink.url(), from: 'alerts@example.com' },
  log: (l: string) => lines.push(l),
});

beforeAll(async () => {
  p = await startPipeline();
  receiver = await startReceiver((_r, res) => res.writeHead(503).end('down'));
  sink = await startSmtpSink();
  await updateApplication(p.db.prisma, p.tenant.applicationId, { owner_email: OWNER });
});
afterAll(async () => {
  await sink.close();
  await receiver.close();
  await p.close();
});

/** An endpoint of the tenant's application whose first delivery failed at `start` (a real attempt on a 503 receiver). */
async function failingEndpoint(path: string, start: Date, applicationId: string | null = p.tenant.applicationId) {
  const endpoint = await p.addEndpoint(`${receiver.url}${path}?token=query-secret`);
  await p.db.prisma.webhookEndpoint.update({ where: { id: endpoint.id }, data: { application_id: applicationId } });
  p.clock.now = start;
  await p.db.prisma.$transaction((tx) =>
    recordEvent(tx, {
      accountId: p.tenant.accountId,
      service: 'property',
      type: 'property.created',
      data: { property_id: 'prop_1' },
      now: start,
    }),
  );
  await relayOnce({ db: p.db.prisma, queue: p.queue, now: () => p.clock.now });
  await p.queue.drain(true);
  const delivery = await p.db.prisma.webhookDelivery.findFirstOrThrow({ where: { endpoint_id: endpoint.id } });
  expect(await attemptDelivery(p.deps, delivery.id, 1)).toBe('retry');
  return endpoint;
}

const alertsTo = (endpointId: string) => sink.messages.filter((m) => m.text.includes(endpointId));

describe('webhook alerts to the application owner', () => {
  it('e-mails the owner once when the endpoint has failed for an hour, naming the URL, the failure and what to do, without secrets', async () => {
    const start = new Date('2026-11-20T08:00:00Z');
    const endpoint = await failingEndpoint('/failing', start);
    p.clock.now = new Date(start.getTime() + 59 * 60_000);
    expect(await sendEndpointAlerts(p.db.prisma, () => p.clock.now, smtpSettings())).toMatchObject({ sent: 0 });

    p.clock.now = new Date(start.getTime() + HOUR);
    // Two workers' sweeps at once: one e-mail.
    const runs = await Promise.all([
      sendEndpointAlerts(p.db.prisma, () => p.clock.now, smtpSettings()),
      sendEndpointAlerts(p.db.prisma, () => p.clock.now, smtpSettings()),
    ]);
    expect(runs[0].sent + runs[1].sent).toBe(1);
    const [mail] = alertsTo(endpoint.id);
    expect(alertsTo(endpoint.id)).toHaveLength(1);
    expect(mail.to).toEqual([OWNER]);
    expect(mail.from).toBe('alerts@example.com');
    expect(mail.text).toContain('Subject: Webhook endpoint failing');
    expect(mail.text).toContain(`URL: ${receiver.url}/failing (query left out)`);
    expect(mail.text).toContain('is failing: none of its deliveries has succeeded since 2026-11-20T08:00:00.000Z');
    expect(mail.text).toContain('HTTP 503');
    expect(mail.text).toContain(`POST /v1/webhooks/${endpoint.id}/redeliveries`);
    expect(mail.text).toContain('Failing since: 2026-11-20T08:00:00.000Z');
    expect(mail.text).not.toContain('query-secret');
    expect(mail.text).not.toContain(endpoint.secret);

    p.clock.now = new Date(start.getTime() + 3 * HOUR); // still failing: no second e-mail for the same failure
    expect(await sendEndpointAlerts(p.db.prisma, () => p.clock.now, smtpSettings())).toMatchObject({ sent: 0 });

    // Paused by the worker after 24 h: alerted again, but only once a day has passed since the first alert.
    await p.db.prisma.webhookEndpoint.update({
      where: { id: endpoint.id },
      data: { status: 'paused', paused_at: new Date(start.getTime() + 24 * HOUR) },
    });
    p.clock.now = new Date(start.getTime() + 24 * HOUR + 30 * 60_000);
    expect(await sendEndpointAlerts(p.db.prisma, () => p.clock.now, smtpSettings())).toMatchObject({ sent: 0 });
    p.clock.now = new Date(start.getTime() + 25 * HOUR);
    expect(await sendEndpointAlerts(p.db.prisma, () => p.clock.now, smtpSettings())).toMatchObject({ sent: 1 });
    const paused = alertsTo(endpoint.id)[1];
    expect(paused.text).toContain('Subject: Webhook endpoint paused');
    expect(paused.text).toContain('was paused: none of its deliveries succeeded for 24 h');
    expect(paused.text).toContain(`PATCH /v1/webhooks/${endpoint.id} with {"status": "active"}`);
    expect(alertsTo(endpoint.id)).toHaveLength(2);
  });

  it("a sweep while another worker's claim of the same alert is not yet committed sends nothing", async () => {
    const start = new Date('2026-11-15T08:00:00Z');
    const endpoint = await failingEndpoint('/claimed', start);
    p.clock.now = new Date(start.getTime() + 2 * HOUR);
    const { result } = await whileHeld(
      p.db,
      (tx) => tx.webhookEndpoint.update({ where: { id: endpoint.id }, data: { alerted_at: p.clock.now } }),
      () => sendEndpointAlerts(p.db.prisma, () => p.clock.now, smtpSettings()),
    );
    expect(result.sent).toBe(0);
    expect(await sendEndpointAlerts(p.db.prisma, () => p.clock.now, smtpSettings())).toMatchObject({ sent: 0 });
    expect(alertsTo(endpoint.id)).toHaveLength(0);
  });

  it('sends nothing for an endpoint paused by hand, nor when no application names an owner', async () => {
    const start = new Date('2026-11-10T08:00:00Z');
    const byHand = await failingEndpoint('/by-hand', start);
    p.clock.now = new Date(start.getTime() + 30 * 60_000);
    await pauseEndpoint(p.db.prisma, byHand.id, p.clock.now);
    const other = await p.db.prisma.application.create({
      data: { id: newId('app'), account_id: p.tenant.accountId, service: 'property', name: 'no owner' },
    });
    const ownerless = await failingEndpoint('/ownerless', start, other.id);
    p.clock.now = new Date(start.getTime() + 2 * HOUR);
    const before = sink.messages.length;
    const run = await sendEndpointAlerts(p.db.prisma, () => p.clock.now, smtpSettings());
    expect(run).toMatchObject({ sent: 0, noOwner: 1 });
    expect(sink.messages.length).toBe(before);
    expect(lines.some((l) => l.includes(ownerless.id) && l.includes('set-owner'))).toBe(true);
  });

  it('an e-mail the SMTP server refuses is tried again by a later sweep', async () => {
    const start = new Date('2026-11-05T08:00:00Z');
    const endpoint = await failingEndpoint('/smtp-down', start);
    p.clock.now = new Date(start.getTime() + 2 * HOUR);
    const down = { smtp: { url: 'smtp://127.0.0.1:1', from: 'alerts@example.com' }, log: () => {} };
    expect(await sendEndpointAlerts(p.db.prisma, () => p.clock.now, down)).toMatchObject({ sent: 0, failed: 1 });
    expect((await p.db.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).alerted_at).toBeNull();
    expect(await sendEndpointAlerts(p.db.prisma, () => p.clock.now, smtpSettings())).toMatchObject({ sent: 1 });
    expect(alertsTo(endpoint.id)).toHaveLength(1);
  });

  it('the relay sends alerts on its sweep, and without SMTP_URL says once that none are sent', async () => {
    const start = new Date(Date.now() - 3 * HOUR);
    const endpoint = await failingEndpoint('/relay', start);
    p.clock.now = new Date();
    const silent: string[] = [];
    const without = startRelay(
      { db: p.db.prisma, queue: p.queue, now: () => p.clock.now },
      { intervalMs: 10, sweepEveryMs: 0, alerts: { smtp: undefined, log: (l) => silent.push(l) } },
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    await without.stop();
    expect(silent).toHaveLength(1);
    expect(silent[0]).toContain('SMTP_URL is not set');
    expect(alertsTo(endpoint.id)).toHaveLength(0);

    const relay = startRelay(
      { db: p.db.prisma, queue: p.queue, now: () => p.clock.now },
      { intervalMs: 10, sweepEveryMs: 0, alerts: smtpSettings() },
    );
    await until(async () => alertsTo(endpoint.id).length === 1 || undefined);
    await relay.stop();
  });
});
