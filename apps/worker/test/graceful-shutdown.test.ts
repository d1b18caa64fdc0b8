// SIGTERM while a request and a webhook delivery are in flight: both finish, then the process
// closes everything and exits 0 (the process as `pnpm start` runs it, on the test run's database and Redis).
import { connect } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { propertyDescriptor } from '@platform/property-service';
import {
  createTenant,
  createTestDatabase,
  startReceiver,
  startServices,
  until,
  type Receiver,
  type StartedServices,
  type Tenant,
  type TestDatabase,
} from '@platform/testkit';

let db: TestDatabase;
let tenant: Tenant;
let receiver: Receiver;
let services: StartedServices;
let port: number;
let answer: () => void;
const answered = new Promise<void>((resolve) => (answer = resolve));

beforeAll(async () => {
  db = await createTestDatabase();
  tenant = await createTenant(db.prisma, { service: propertyDescriptor });
  // the receiver holds the delivery until the test lets it answer
  receiver = await startReceiver((_req, res) => void answered.then(() => res.writeHead(200).end('ok')));
  services = await startServices({ databaseUrl: db.url, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
  port = services.ports.property;
}, 90_000);

afterAll(async () => {
  if (services?.child.exitCode === null) services.child.kill('SIGKILL');
  await receiver.close();
  await db.drop();
});

const api = (method: string, path: string, body?: object) =>
  fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: { apikey: tenant.key, 'content-type': 'application/json' },
    body: body && JSON.stringify(body),
  });

it('finishes the request and the delivery in flight on SIGTERM, then exits 0', async () => {
  expect(
    (await api('POST', '/v1/webhooks', { url: `${receiver.url}/hook`, events: ['property.created'] })).status,
  ).toBe(201);
  const property = { type: 'apartment', title: 'Shut down gently', address: { postal_code: '10115', city: 'Berlin' } };
  expect((await api('POST', '/v1/properties', property)).status).toBe(201);
  await receiver.waitFor(1, '/hook'); // the delivery attempt is now in flight

  // a second request, half sent
  const body = JSON.stringify({ ...property, title: 'Arrived during shutdown' });
  const socket = connect({ host: '127.0.0.1', port });
  let response = '';
  socket.on('data', (chunk) => (response += chunk));
  const closed = new Promise((resolve) => socket.once('close', resolve));
  socket.write(
    `POST /v1/properties HTTP/1.1\r\nHost: x\r\napikey: ${tenant.key}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`,
  );
  socket.write(body.slice(0, 10));
  await new Promise((resolve) => setTimeout(resolve, 200));

  const exited = services.stop('SIGTERM');
  await until(async () => services.output().includes('shutting down'), 10_000);
  socket.write(body.slice(10));
  await closed;
  expect(response).toMatch(/^HTTP\/1\.1 201 /);
  answer();
  expect(await exited).toBe(0);

  // The delivery in flight was sent and attempted once, and succeeded. The second property's event
  // may or may not have been delivered before the worker stopped (the relay and the worker run
  // until the services are closed): either it is still waiting (not relayed, or a pending delivery
  // without an attempt), or it was sent once and succeeded; never cut off, never sent twice.
  const rows = await db.query<{
    title: string;
    event_id: string;
    relayed: boolean;
    status: string | null;
    attempt: string | null;
    status_code: number | null;
  }>(
    `SELECT p.title, e.id AS event_id, e.relayed_at IS NOT NULL AS relayed, d.status::text AS status, a.id AS attempt, a.status_code
       FROM outbox_events e JOIN properties p ON p.id = e.payload::json->'data'->>'property_id'
       LEFT JOIN webhook_deliveries d ON d.event_id = e.id LEFT JOIN delivery_attempts a ON a.delivery_id = d.id
      WHERE e.type = 'property.created'`,
  );
  const sent = (eventId: string) => receiver.received.filter((r) => JSON.parse(r.raw.toString()).id === eventId).length;
  const inFlight = rows.filter((r) => r.title === property.title);
  expect(inFlight).toMatchObject([{ relayed: true, status: 'succeeded', status_code: 200 }]);
  expect(sent(inFlight[0]!.event_id)).toBe(1);
  const second = rows.filter((r) => r.title === 'Arrived during shutdown');
  expect(second).toHaveLength(1);
  const { relayed, status, attempt, status_code, event_id } = second[0]!;
  const waiting = !relayed || (status === 'pending' && attempt === null);
  const delivered = status === 'succeeded' && status_code === 200;
  expect(waiting || delivered, `the second delivery: ${status} ${status_code}`).toBe(true);
  expect(sent(event_id)).toBe(delivered ? 1 : 0);
  expect(await db.prisma.property.count({ where: { account_id: tenant.accountId } })).toBe(2);
  expect(services.output()).toContain('"msg":"shut down"');
}, 60_000);
