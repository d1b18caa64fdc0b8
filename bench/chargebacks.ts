// Settling a month of chargebacks: 1,000,000 usage records of 100 agents (four units) × 50 consuming teams
// (goal: under 30 s), set-based (one claim-and-price statement, the settlements, lines and invoices in bulk).
// A fifth of the agents changed their rate mid-month (two rates per line group), 1 % of the records are
// late October usage. Then the same period again (exactly once: nothing happens) and a check of the totals
// against an independent computation. pnpm bench:chargebacks [--records 1000000] [--agents 100] [--teams 50]
import { parseArgs } from 'node:util';
import { settleChargebacks } from '../apps/agent-platform/src/chargebacks/index.js';
import { startBenchDatabase } from './support.js';

const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '1000000' },
    agents: { type: 'string', default: '100' },
    teams: { type: 'string', default: '50' },
  },
});
const RECORDS = Number(values.records);
const AGENTS = Number(values.agents);
const TEAMS = Number(values.teams);
const GOAL_S = 30;
const ACCOUNT = 'acct_bench';
const UNITS = ['per_request', 'per_1k_tokens', 'per_hour', 'per_month'];

const bench = await startBenchDatabase('chargebacks', [ACCOUNT]);
const { db } = bench;
try {
  const loadStart = performance.now();
  // Agents created in September, Europe/Berlin (the default zone); every fifth changed its rate on 2026-11-15.
  await db.$executeRawUnsafe(`
    INSERT INTO agent_deployments (id, account_id, name, owning_team, capabilities, chargeback_amount_cents, chargeback_unit, created_at, updated_at)
    SELECT 'agt_bench_' || lpad(a::text, 3, '0'), '${ACCOUNT}', 'Agent ' || a, 'team-' || (a % ${TEAMS}), ARRAY['summarise'],
      5 + a % 20, (ARRAY['${UNITS.join("','")}'])[1 + a % 4]::"ChargebackUnit", '2026-09-01T00:00:00Z', '2026-09-01T00:00:00Z'
    FROM generate_series(0, ${AGENTS - 1}) AS a`);
  await db.$executeRawUnsafe(`
    INSERT INTO agent_rates (id, account_id, agent_id, amount_cents, unit, valid_from, valid_to)
    SELECT 'rate_' || id, account_id, id, chargeback_amount_cents, chargeback_unit, created_at,
      CASE WHEN right(id, 3)::int % 5 = 0 THEN '2026-11-15T00:00:00Z'::timestamptz END
    FROM agent_deployments
    UNION ALL
    SELECT 'rate2_' || id, account_id, id, chargeback_amount_cents + 3, chargeback_unit, '2026-11-15T00:00:00Z', NULL
    FROM agent_deployments WHERE right(id, 3)::int % 5 = 0`);
  // RECORDS records round-robin over agents and teams, spread over November (Berlin); about 1 % (every 97th) late
  // October usage received on 2026-11-15. Stored as the API stores them: in the order received, with ids that
  // start with the time of receipt (newId) and client ids that count up per agent (the reporter's sequence).
  await db.$executeRawUnsafe(`
    INSERT INTO usage_records (id, account_id, agent_id, client_id, team, quantity, unit, occurred_at, received_at)
    SELECT 'use_' || lpad((row_number() OVER (ORDER BY received_at, g))::text, 10, '0'), '${ACCOUNT}', agent_id,
      'c' || lpad((row_number() OVER (PARTITION BY agent_id ORDER BY received_at, g))::text, 10, '0'), team, quantity, unit, occurred_at, received_at
    FROM (
      SELECT g, d.id AS agent_id, 'team-' || ((g / ${AGENTS}) % ${TEAMS}) AS team, d.chargeback_unit AS unit,
        CASE d.chargeback_unit WHEN 'per_request' THEN 1 + g % 7 WHEN 'per_1k_tokens' THEN (1 + (g * 7919) % 50000) / 1000.0
          WHEN 'per_hour' THEN (1 + (g * 104729) % 8000000) / 1000000.0 ELSE 1 END AS quantity,
        o.occurred_at, CASE WHEN g % 97 = 0 THEN '2026-11-15T00:00:00Z'::timestamptz + (g % 86400) * interval '1 second' ELSE o.occurred_at END AS received_at
      FROM generate_series(0::bigint, ${RECORDS - 1}) AS g
      JOIN agent_deployments d ON d.id = 'agt_bench_' || lpad((g % ${AGENTS})::text, 3, '0')
      CROSS JOIN LATERAL (SELECT CASE WHEN g % 97 = 0 THEN '2026-10-25T00:00:00Z'::timestamptz + (g % 86400) * interval '1 second'
        ELSE '2026-10-31T23:00:00Z'::timestamptz + ((g * 7919) % 2591999) * interval '1 second' END AS occurred_at) o
    ) r
    ORDER BY received_at, g`);
  await db.$executeRawUnsafe('VACUUM ANALYZE usage_records');
  await db.$executeRawUnsafe('VACUUM ANALYZE agent_rates');
  const loadSeconds = (performance.now() - loadStart) / 1000;

  // What the settlement must come to, computed independently (per team, agent, rate and month; rounded once per group).
  const [expected] = await db.$queryRawUnsafe<{ net: string; groups: number }[]>(`
    SELECT sum(amount)::text AS net, count(*)::int AS groups FROM (
      SELECT round(sum(u.quantity) * r.amount_cents) AS amount
      FROM usage_records u JOIN agent_rates r ON r.agent_id = u.agent_id AND r.valid_from <= u.occurred_at AND u.occurred_at < coalesce(r.valid_to, 'infinity')
      GROUP BY u.team, u.agent_id, r.id, to_char(u.occurred_at AT TIME ZONE 'Europe/Berlin', 'YYYY-MM')
    ) t`);

  const now = new Date('2026-12-01T01:00:00Z'); // 02:00 in Berlin
  const start = performance.now();
  const outcome = await settleChargebacks(db, { accountId: ACCOUNT, period: '2026-11', now });
  const seconds = (performance.now() - start) / 1000;
  const againStart = performance.now();
  const again = await settleChargebacks(db, { accountId: ACCOUNT, period: '2026-11', now });
  const againMs = performance.now() - againStart;

  const [actual] = await db.$queryRawUnsafe<{ net: string; lines: number; late: number }[]>(`
    SELECT (SELECT sum(net_cents)::text FROM chargeback_settlements) AS net, (SELECT count(*)::int FROM chargeback_lines) AS lines,
      (SELECT count(*)::int FROM chargeback_lines WHERE late) AS late`);
  const unsettled = await db.usageRecord.count({ where: { settled_in: null } });
  const ok =
    outcome.records === RECORDS &&
    outcome.settlements === TEAMS &&
    actual.net === expected.net &&
    actual.lines === expected.groups &&
    unsettled === 0 &&
    again.outcome === 'already_settled';
  console.log(
    JSON.stringify(
      {
        records: RECORDS,
        agents: AGENTS,
        teams: TEAMS,
        load_s: Number(loadSeconds.toFixed(1)),
        settle_s: Number(seconds.toFixed(2)),
        records_per_s: Math.round(RECORDS / seconds),
        goal_s: GOAL_S,
        settlements: outcome.settlements,
        lines: actual.lines,
        late_lines: actual.late,
        invoices: outcome.internal_invoice_ids.length,
        net_cents: actual.net,
        expected_net_cents: expected.net,
        second_run: again.outcome,
        second_run_ms: Number(againMs.toFixed(1)),
        ok,
      },
      null,
      2,
    ),
  );
  if (!ok) process.exitCode = 1;
} finally {
  await bench.close();
}
