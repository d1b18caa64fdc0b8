// Usage ingestion through the agent-platform API (POST /v1/agents/{id}/usage, real HTTP, undici
// keep-alive): batches of 1,000 records {client_id, team, quantity, unit, occurred_at} for 100 agents
// (three chargeback units) × 50 consuming teams, distinct client_ids (goal: ≥ 20,000 records/s).
// Per concurrency (default 4 and 8 clients) BATCHES new batches; then the batches of the last phase
// resent (every record a duplicate: the idempotent no-op path). Every answer is checked
// (accepted/duplicates) and the rows in usage_records counted afterwards. Then the layers: the
// service called in-process (no HTTP, JSON or validation; its rows deleted again) and
// `EXPLAIN (ANALYZE, BUFFERS, WAL)` of one batch's INSERT (rolled back).
//   pnpm bench:usage [--batches 200] [--clients 4,8] [--agents 100] [--teams 50]
//   A CPU profile of the process (the service and the load generator, which only sends prepared bodies):
//   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/usage-ingestion.ts
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { createUsageService } from '../apps/agent-platform/src/usage/index.js';
import type { UsageBatch } from '../apps/agent-platform/src/usage/schemas.js';
import { startAgentPlatformStack } from './agent-platform-stack.js';
import { percentiles } from './support.js';

const { values } = parseArgs({
  options: {
    batches: { type: 'string', default: '200' },
    clients: { type: 'string', default: '4,8' },
    agents: { type: 'string', default: '100' },
    teams: { type: 'string', default: '50' },
  },
});
const BATCHES = Number(values.batches);
const CLIENTS = values.clients.split(',').map(Number);
const AGENTS = Number(values.agents);
const TEAMS = Number(values.teams);
const BATCH_SIZE = 1000;
const WARM_UP = 10;
const GOAL_RECORDS_PER_S = 20_000;
const UNITS = ['per_request', 'per_1k_tokens', 'per_hour'] as const;

const stack = await startAgentPlatformStack({ name: 'usage', scopes: ['agents:write'] });
const { db, apiUrl, key, accountId } = stack;
const client = new Agent({ connections: Math.max(...CLIENTS), keepAliveTimeout: 60_000 });
let counted = false;
try {
  // 100 active agents, a third in each unit (through the database: the agents' API is not what is measured).
  const agentId = (a: number) => `agt_bench_${String(a).padStart(3, '0')}`;
  const unitOf = (a: number) => UNITS[a % UNITS.length];
  await db.agentDeployment.createMany({
    data: Array.from({ length: AGENTS }, (_, a) => ({
      id: agentId(a),
      account_id: accountId,
      name: `Agent ${a}`,
      owning_team: `team-${a % TEAMS}`,
      capabilities: ['summarise'],
      chargeback_amount_cents: 5 + (a % 20),
      chargeback_unit: unitOf(a),
    })),
  });

  /** Batch `b` (of a phase): one agent's records, 1,000 distinct client_ids over all teams, occurred in the last 30 days. */
  function batch(phase: string, b: number): { agent: string; body: string } {
    const a = b % AGENTS;
    const unit = unitOf(a);
    const now = Date.now();
    const records = Array.from({ length: BATCH_SIZE }, (_, i) => {
      const n = b * BATCH_SIZE + i;
      // per_request: whole requests; per_1k_tokens: thousands with three decimals; per_hour: up to six decimals.
      // (An integer divided by 10^k is the double nearest to the decimal, so it keeps at most k decimals.)
      const quantity =
        unit === 'per_request'
          ? 1 + (n % 7)
          : unit === 'per_1k_tokens'
            ? (1 + ((n * 7919) % 50_000)) / 1000
            : (1 + ((n * 104_729) % 8_000_000)) / 1_000_000;
      return {
        client_id: `${phase}-${b}-${i}`,
        team: `team-${(n * 31) % TEAMS}`,
        quantity,
        unit,
        occurred_at: new Date(now - ((n * 7_919_993) % (30 * 86_400_000))).toISOString(),
      };
    });
    return { agent: agentId(a), body: JSON.stringify({ records }) };
  }

  async function send(b: {
    agent: string;
    body: string;
  }): Promise<{ ms: number; accepted: number; duplicates: number }> {
    const start = performance.now();
    const r = await request(`${apiUrl}/v1/agents/${b.agent}/usage`, {
      method: 'POST',
      dispatcher: client,
      headers: { apikey: key, 'content-type': 'application/json' },
      body: b.body,
    });
    const text = await r.body.text();
    const ms = performance.now() - start;
    if (r.statusCode !== 200) throw new Error(`POST usage of ${b.agent}: ${r.statusCode} ${text.slice(0, 500)}`);
    return { ms, ...(JSON.parse(text) as { accepted: number; duplicates: number }) };
  }

  /** Sends the batches, `clients` at a time; each answer must be `expect` (accepted, duplicates). */
  async function phase(
    batches: { agent: string; body: string }[],
    clients: number,
    expect: { accepted: number; duplicates: number },
  ) {
    const times: number[] = [];
    let next = 0;
    const start = performance.now();
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (next < batches.length) {
          const result = await send(batches[next++]);
          if (result.accepted !== expect.accepted || result.duplicates !== expect.duplicates) {
            throw new Error(
              `expected ${JSON.stringify(expect)}, got accepted ${result.accepted}, duplicates ${result.duplicates}`,
            );
          }
          times.push(result.ms);
        }
      }),
    );
    const seconds = (performance.now() - start) / 1000;
    return {
      clients,
      batches: batches.length,
      records: batches.length * BATCH_SIZE,
      seconds: Number(seconds.toFixed(2)),
      records_per_s: Math.round((batches.length * BATCH_SIZE) / seconds),
      ...percentiles(times, 0),
    };
  }

  const fresh = { accepted: BATCH_SIZE, duplicates: 0 };
  const resent = { accepted: 0, duplicates: BATCH_SIZE };
  const count = async () =>
    Number((await db.$queryRawUnsafe<{ n: bigint }[]>('SELECT count(*) AS n FROM usage_records'))[0].n);

  // Warm-up (not counted in the figures; its rows are in the count): JIT, connections, the key cache.
  await phase(
    Array.from({ length: WARM_UP }, (_, b) => batch('warm', b)),
    Math.max(...CLIENTS),
    fresh,
  );

  const rows = [];
  let lastBatches: { agent: string; body: string }[] = [];
  for (const clients of CLIENTS) {
    lastBatches = Array.from({ length: BATCHES }, (_, b) => batch(`c${clients}`, b)); // prepared before the clock starts
    rows.push({ phase: 'new records', ...(await phase(lastBatches, clients, fresh)) });
  }
  const stored = await count();
  const resend = await phase(lastBatches, Math.max(...CLIENTS), resent);
  rows.push({ phase: 'resent (all duplicates)', ...resend });
  const afterResend = await count();
  const expected = (WARM_UP + BATCHES * CLIENTS.length) * BATCH_SIZE;

  // The layers: the same service in this process (no HTTP, no JSON parsing, no schema validation), the
  // fewest clients; its rows are removed afterwards. Then EXPLAIN of one batch's INSERT (rolled back).
  const usage = createUsageService({ db, now: () => new Date() });
  const direct = Array.from({ length: BATCHES }, (_, b) => batch('direct', b)).map((b) => ({
    agent: b.agent,
    parsed: JSON.parse(b.body) as UsageBatch,
  }));
  const directTimes: number[] = [];
  let nextDirect = 0;
  const directStart = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(...CLIENTS) }, async () => {
      while (nextDirect < direct.length) {
        const b = direct[nextDirect++];
        const start = performance.now();
        const result = await usage.ingest(accountId, b.agent, b.parsed);
        if (result.accepted !== BATCH_SIZE) throw new Error(`in-process ingest: ${JSON.stringify(result)}`);
        directTimes.push(performance.now() - start);
      }
    }),
  );
  const directSeconds = (performance.now() - directStart) / 1000;
  rows.push({
    phase: 'in-process ingest (no HTTP)',
    clients: Math.min(...CLIENTS),
    batches: BATCHES,
    records: BATCHES * BATCH_SIZE,
    seconds: Number(directSeconds.toFixed(2)),
    records_per_s: Math.round((BATCHES * BATCH_SIZE) / directSeconds),
    ...percentiles(directTimes, 0),
  });
  await db.$executeRawUnsafe(`DELETE FROM usage_records WHERE client_id LIKE 'direct-%'`);

  const sample = (JSON.parse(batch('explain', 0).body) as UsageBatch).records;
  /** Thrown out of the transaction so that it rolls back, carrying the plan. */
  class Rollback {
    constructor(readonly lines: string[]) {}
  }
  const plan = await db
    .$transaction(async (tx) => {
      const lines = await tx.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(
        `EXPLAIN (ANALYZE, BUFFERS, WAL) INSERT INTO usage_records (id, account_id, agent_id, client_id, team, quantity, unit, occurred_at, received_at)
       SELECT 'use_' || r.client_id, $1, $2, r.client_id, r.team, r.quantity, $3::"ChargebackUnit", r.occurred_at, now()
       FROM unnest($4::text[], $5::text[], $6::numeric[], $7::timestamptz[]) AS r(client_id, team, quantity, occurred_at)
       ON CONFLICT (agent_id, client_id) DO NOTHING`,
        accountId,
        agentId(0),
        unitOf(0),
        sample.map((r) => r.client_id),
        sample.map((r) => r.team),
        sample.map((r) => r.quantity.toFixed(6)),
        sample.map((r) => r.occurred_at),
      );
      throw new Rollback(lines.map((l) => l['QUERY PLAN']));
    })
    .then(
      () => [] as string[],
      (error: unknown) => (error instanceof Rollback ? error.lines : [`EXPLAIN failed: ${String(error)}`]),
    );

  console.log(
    JSON.stringify({
      agents: AGENTS,
      teams: TEAMS,
      batch_size: BATCH_SIZE,
      load_average: loadavg().map((l) => Number(l.toFixed(1))),
    }),
  );
  console.table(rows);
  console.log(
    `\nEXPLAIN (ANALYZE, BUFFERS, WAL) of one batch's INSERT (1,000 new rows, ${afterResend} in the table):\n${plan.join('\n')}\n`,
  );
  console.log(
    `usage_records: ${stored} rows after the new batches (expected ${expected}), ${afterResend} after the resend`,
  );
  const worst = Math.min(...rows.filter((r) => r.phase === 'new records').map((r) => r.records_per_s));
  console.log(
    `Goal ≥ ${GOAL_RECORDS_PER_S} records/s: ${worst >= GOAL_RECORDS_PER_S ? 'met' : 'NOT met'} (slowest phase ${worst}/s)`,
  );

  counted = stored === expected && afterResend === expected;
} finally {
  await client.close();
  await stack.close(); // also when a step fails: no server or temp dir is left behind
}
process.exit(counted ? 0 : 1);
