// The deployment at scale: two instances of each service and two workers behind nginx, which
// terminates TLS with a certificate of a test CA; uploads on S3. The contract suites of the
// property, feeds and leads documents run through the proxy over HTTPS (the agent platform's:
// agent-platform-api.contract.test.ts), then the proxy's handling of client addresses and of an
// instance killed mid-run.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { Agent, request } from 'undici';
import type { EventType } from '@platform/contract';
import { RUNNING_LEASE_MS } from '@platform/service';
import { until, type ScaledDeployment } from '@platform/testkit';
import { agentBody } from '../agent-platform-api/agents.js';
import { describeContractChecks, subscribeToEverything } from '../checks.js';
import { contractRun } from '../harness.js';
import { describeLeadsScenarios, LEADS_EVENTS } from '../leads-api/index.js';
import { describePropertyScenarios, PROPERTY_EVENTS } from '../property-api/index.js';
import { behindProxy } from './deployment.js';

/** Feed requests a minute from one client address (the suite's own reads stay far below). */
const FEED_LIMIT = 200;
let deployment: ScaledDeployment;
const run = contractRun(['property-api', 'public-feeds-api', 'leads-api'], {
  deploy: behindProxy({ FEED_RATE_LIMIT_PER_ADDRESS: String(FEED_LIMIT) }, (started) => (deployment = started)),
});
let eventTypes: EventType[] = [];
beforeAll(async () => void (eventTypes = await subscribeToEverything(run, 'property')));

describePropertyScenarios(run);
describeLeadsScenarios(run);
describeContractChecks(run, 'property-api', {
  service: 'property',
  eventTypes: () => eventTypes,
  expectedEvents: PROPERTY_EVENTS,
});
describeContractChecks(run, 'public-feeds-api', { service: 'property' });
describeContractChecks(run, 'leads-api', {
  service: 'property',
  eventTypes: () => eventTypes,
  expectedEvents: LEADS_EVENTS,
});

/** One request through the proxy with undici; a connection the proxy cuts counts as status 0. */
async function send(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; dispatcher?: Agent } = {},
): Promise<{ status: number; retryAfter: number; replayed: boolean }> {
  try {
    const response = await request(url, { method: 'GET', ...options } as Parameters<typeof request>[1]);
    await response.body.dump();
    return {
      status: response.statusCode,
      retryAfter: Number(response.headers['retry-after'] ?? 0),
      replayed: response.headers['idempotent-replayed'] === 'true',
    };
  } catch {
    return { status: 0, retryAfter: 0, replayed: false };
  }
}

/**
 * A POST with its Idempotency-Key, resent with the same key while the answer says "try again"
 * (no answer, 502/503/504 from the proxy or a shedding instance, 409 while the key is held), as
 * a client following docs/conventions.md does; resolves to every answer in order.
 */
async function postUntilAnswered(url: string, apiKey: string, key: string, body: unknown, deadlineMs: number) {
  const answers: { status: number; replayed: boolean }[] = [];
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const answer = await send(url, {
      method: 'POST',
      headers: { apikey: apiKey, 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify(body),
    });
    answers.push(answer);
    if (![0, 409, 502, 503, 504].includes(answer.status) || Date.now() > deadline) return answers;
    await new Promise((resolve) => setTimeout(resolve, Math.min(answer.retryAfter || 0.2, 2) * 1000));
  }
}

describe('behind the proxy: client addresses', () => {
  it("limits the public feeds per client address, taken from the proxy's connection and not from the client's X-Forwarded-For", async () => {
    const from = (localAddress: string) => new Agent({ localAddress, connect: { ca: deployment.ca } });
    const [limited, other] = [from('127.0.0.2'), from('127.0.0.3')];
    // The route counts against the address before it looks at the token.
    const feed = `${run.urls.property}/public/v1/feeds/not-a-feed-token/listings`;
    const statuses = new Set<number>();
    // Each request names another address in X-Forwarded-For: believed, it would never be limited.
    for (let sent = 0; !statuses.has(429) && sent < 3 * FEED_LIMIT; sent += 20) {
      const batch = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          send(feed, {
            dispatcher: limited,
            headers: { 'x-forwarded-for': `10.0.${(sent + i) >> 8}.${(sent + i) % 256}` },
          }),
        ),
      );
      for (const { status } of batch) statuses.add(status);
    }
    expect([...statuses].sort()).toEqual([404, 429]);
    // Another client of the same proxy is not limited: the services did not count the proxy's address.
    expect((await send(feed, { dispatcher: other })).status).toBe(404);
    expect((await send(feed, { dispatcher: limited })).status).toBe(429);
    // Both instances served the feeds (one budget in Redis for every instance).
    const served = new Set(
      deployment.proxy
        .accessLog()
        .filter((line) => line.startsWith('127.0.0.2 ') && line.includes('/public/v1/feeds/'))
        .flatMap((line) => line.match(/\d+\.\d+\.\d+\.\d+:\d+/g) ?? []),
    );
    expect(served.size).toBe(2);
    await Promise.all([limited.close(), other.close()]);
  }, 180_000);
});

describe('behind the proxy: an instance killed mid-run', () => {
  // What the kill below did, checked by the test after it.
  const cut = { first: [] as number[], claimed: 0, retried: [] as number[], rows: -1 };

  // The killed request's claim is no longer renewed: its lease (RUNNING_LEASE_MS) runs out, and
  // the retry the client keeps sending (409 with Retry-After meanwhile) runs on the other instance.
  it(
    'a POST cut off by the SIGKILL of its instance succeeds when retried with its key through the proxy',
    async () => {
      const keys = [randomUUID(), randomUUID()];
      const title = (i: number) => `Killed mid-request ${keys[i]!.slice(0, 8)}`;
      const url = `${run.urls.property}/v1/properties`;
      const body = (i: number) => ({
        type: 'apartment',
        title: title(i),
        address: { postal_code: '10115', city: 'Berlin' },
      });
      const victim = deployment.instances.find((i) => i.name === 'property-1')!;
      // The account's row locked: both inserts wait inside their transaction, their keys claimed;
      // the proxy sent one to each instance. Then one instance dies.
      const { pending } = await run.db.prisma.$transaction(
        async (tx) => {
          await tx.$queryRaw`SELECT 1 FROM accounts WHERE id = ${run.property.accountId} FOR UPDATE`;
          const pending = keys.map((key, i) =>
            send(url, {
              method: 'POST',
              headers: { apikey: run.property.key, 'content-type': 'application/json', 'idempotency-key': key },
              body: JSON.stringify(body(i)),
            }),
          );
          await until(async () => (await insertsWaiting()) >= 2, 30_000);
          cut.claimed = await claimed(keys);
          await victim.process.stop('SIGKILL');
          return { pending }; // inside an object: returning the promises would make the transaction wait for them
        },
        { timeout: 60_000 },
      );
      const first = await Promise.all(pending);
      cut.first = first.map((a) => a.status).sort();
      const i = first.findIndex((a) => a.status === 502);
      const retried = await postUntilAnswered(url, run.property.key, keys[i]!, body(i), RUNNING_LEASE_MS + 20_000);
      cut.retried = retried.map((a) => a.status);
      const rows = await run.db.query('SELECT 1 FROM properties WHERE title = $1', [title(i)]);
      cut.rows = rows.length;
      expect(cut.retried.at(-1)).toBe(201);
      expect(cut.rows).toBe(1);
    },
    RUNNING_LEASE_MS + 60_000,
  );

  it('…where the kill cut exactly the request on the killed instance, and its effect never happened twice', () => {
    expect(cut.claimed).toBe(2);
    expect(cut.first).toEqual([201, 502]);
    expect(cut.retried.length).toBeGreaterThan(0);
    expect(cut.rows).toBeLessThanOrEqual(1);
  });

  it('a stream of idempotent POSTs through the proxy loses and doubles nothing when an instance is killed', async () => {
    const url = `${run.urls.agents}/v1/agents`;
    const stream = randomUUID().slice(0, 8);
    const names = Array.from({ length: 40 }, (_, i) => `Stream ${stream} ${i}`);
    let succeeded = 0;
    const victim = deployment.instances.find((i) => i.name === 'agents-1')!;
    const killed = until(async () => succeeded >= 10, 60_000).then(() => victim.process.stop('SIGKILL'));
    const outcomes: { status: number; replayed: boolean }[][] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let i = next++; i < names.length; i = next++) {
          outcomes[i] = await postUntilAnswered(
            url,
            run.agents.key,
            `${stream}-${i}`,
            agentBody(names[i]!, []),
            RUNNING_LEASE_MS + 20_000,
          );
          if (outcomes[i]!.at(-1)?.status === 201) succeeded++;
        }
      }),
    );
    await killed;
    const rows = await run.db.query<{ name: string; n: string }>(
      'SELECT name, count(*) AS n FROM agent_deployments WHERE name = ANY($1) GROUP BY name',
      [names],
    );
    const created = new Map(rows.map((r) => [r.name, Number(r.n)]));
    // Every write ends in 201 (one the kill cut is retried with its key until its dead claim's
    // lease runs out) and exists once.
    const wrong = outcomes.flatMap((answers, i) => {
      const ok = answers.at(-1)!.status === 201 && created.get(names[i]!) === 1;
      return ok ? [] : [`${i}: ${answers.map((a) => a.status).join(' → ')}, ${created.get(names[i]!) ?? 0} created`];
    });
    expect(wrong).toEqual([]);
    // Both instances answered (before the kill).
    const instances = new Set(
      deployment.proxy
        .accessLog()
        .filter((line) => line.includes(' POST /v1/agents '))
        // `$upstream_addr $upstream_status`: "a:1, b:2 502, 201" when the proxy tried the next one
        .flatMap((line) => line.match(/\d+\.\d+\.\d+\.\d+:\d+/g) ?? []),
    );
    expect(instances.size).toBe(2);
  }, 180_000);
});

/** Sessions whose insert of a property waits on a lock. */
async function insertsWaiting(): Promise<number> {
  const [row] = await run.db.query<{ n: string }>(
    `SELECT count(*) AS n FROM pg_stat_activity
     WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE '%insert into%properties%'`,
  );
  return Number(row?.n ?? 0);
}

/** Idempotency keys claimed by a request that has not answered yet. */
async function claimed(keys: string[]): Promise<number> {
  const [row] = await run.db.query<{ n: string }>(
    'SELECT count(*) AS n FROM idempotency_keys WHERE key = ANY($1) AND completed_at IS NULL',
    [keys],
  );
  return Number(row?.n ?? 0);
}
