// The process as `pnpm start` runs it: Prometheus metrics on METRICS_PORT (never on the public
// ports) and the health routes on each service, scraped over real HTTP after real traffic.
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

beforeAll(async () => {
  db = await createTestDatabase();
  tenant = await createTenant(db.prisma, { service: propertyDescriptor });
  receiver = await startReceiver((_req, res) => void res.writeHead(200).end('ok'));
  services = await startServices({ databaseUrl: db.url, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
}, 90_000);

afterAll(async () => {
  await services?.stop();
  await receiver.close();
  await db.drop();
});

const api = (method: string, path: string, body?: object) =>
  fetch(`http://127.0.0.1:${services.ports.property}${path}`, {
    method,
    headers: { apikey: tenant.key, 'content-type': 'application/json' },
    body: body && JSON.stringify(body),
  });

const scrape = async () => {
  const response = await fetch(`http://127.0.0.1:${services.ports.metrics}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain');
  return response.text();
};

/** The value of one sample line, e.g. `metric{a="b"} 3`; undefined when absent. */
const sample = (text: string, line: RegExp): number | undefined => {
  const match = text.split('\n').find((l) => line.test(l));
  return match === undefined ? undefined : Number(match.split(' ').at(-1));
};

it('answers /health/live and /health/ready on both services without a key, and keeps them out of the info log', async () => {
  for (const port of [services.ports.property, services.ports.agents]) {
    const live = await fetch(`http://127.0.0.1:${port}/health/live`);
    expect([live.status, await live.json()]).toEqual([200, { status: 'ok' }]);
    const ready = await fetch(`http://127.0.0.1:${port}/health/ready`);
    expect([ready.status, await ready.json()]).toEqual([
      200,
      { status: 'ready', checks: { database: 'ok', redis: 'ok', storage: 'ok' } },
    ]);
  }
  expect(services.output()).not.toContain('/health/');
});

it('counts requests by route pattern and status, key-cache lookups, webhook deliveries and queue depths', async () => {
  expect(
    (await api('POST', '/v1/webhooks', { url: `${receiver.url}/hook`, events: ['property.created'] })).status,
  ).toBe(201);
  const created = await api('POST', '/v1/properties', {
    type: 'apartment',
    title: 'Counted',
    address: { postal_code: '10115', city: 'Berlin' },
  });
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as { id: string };
  for (let i = 0; i < 3; i++) expect((await api('GET', `/v1/properties/${id}`)).status).toBe(200);
  expect((await api('GET', '/v1/properties/prop_missing')).status).toBe(404);
  await receiver.waitFor(1, '/hook');

  // The delivery's attempt is counted after it is recorded: poll the scrape until it shows.
  let text = '';
  await until(async () => {
    text = await scrape();
    return (sample(text, /^webhook_deliveries_total\{service="property",outcome="delivered"\}/) ?? 0) >= 1;
  }, 15_000);
  const route = 'route="/v1/properties/:propertyId"';
  expect(
    sample(
      text,
      new RegExp(
        `^http_request_duration_seconds_count\\{service="property",method="GET",${route},status_code="200"\\}`,
      ),
    ),
  ).toBe(3);
  expect(
    sample(
      text,
      new RegExp(
        `^http_request_duration_seconds_count\\{service="property",method="GET",${route},status_code="404"\\}`,
      ),
    ),
  ).toBe(1);
  expect(sample(text, /^webhook_delivery_latency_seconds_count\{service="property"\}/)).toBe(1);
  // One key, six requests: the first lookup goes to the database, the rest come from the cache.
  expect(sample(text, /^api_key_cache_lookups_total\{service="property",result="miss"\}/)).toBeGreaterThanOrEqual(1);
  expect(sample(text, /^api_key_cache_lookups_total\{service="property",result="hit"\}/)).toBeGreaterThanOrEqual(3);
  for (const state of ['waiting', 'delayed', 'failed']) {
    expect(
      sample(text, new RegExp(`^queue_jobs\\{queue="webhook-deliveries",state="${state}"\\}`)),
    ).toBeGreaterThanOrEqual(0);
    expect(sample(text, new RegExp(`^queue_jobs\\{queue="jobs",state="${state}"\\}`))).toBeGreaterThanOrEqual(0);
  }
  expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
  expect(text).toContain('# TYPE job_failures_total counter');
});

it('keeps metrics off the public ports', async () => {
  for (const port of [services.ports.property, services.ports.agents]) {
    expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(404);
  }
  expect((await fetch(`http://127.0.0.1:${services.ports.metrics}/health/live`)).status).toBe(200);
});
