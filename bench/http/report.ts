// The table of bench/http/run.ts and its place in bench/RESULTS.md (between two markers).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { LoadResult, Scenario } from './load.js';
import type { LoopDelay } from './loop-delay.js';
import type { Variant } from './processes.js';

export interface Row {
  variant: Variant;
  scenario: Scenario;
  result: LoadResult;
  /** At half the measured maximum (goal: p99 < 25 ms). */
  latency?: LoadResult;
  /** At the rate of the floor's latency run (half the floor's maximum): the same load for both. */
  atFloorRate?: LoadResult;
  /** The project's event-loop delay during the run at half the maximum. */
  loop?: LoopDelay;
  /** Pages at 200 requests/s (goal: p95 < 15 ms). */
  at200?: LoadResult;
}

const RESULTS = fileURLToPath(new URL('../RESULTS.md', import.meta.url));
const BEGIN = '<!-- bench:http begin -->';
const END = '<!-- bench:http end -->';
const VARIANT_NAMES: Record<Variant, string> = {
  start: '`pnpm start`',
  services: 'services only',
  unprepared: '`pnpm start`, statements unnamed',
  pgbouncer: '`pnpm start` through PgBouncer',
};
const P99_GOAL_MS = 25;
const P95_AT_200_GOAL_MS = 15;

const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
const fmt = (n: number) => Math.round(n).toLocaleString('en');

export function report(
  rows: Row[],
  floors: Map<Scenario, LoadResult[]>,
  scenarios: (Scenario & { goal: number; guard: number })[],
  run: {
    size: { accounts: number; rowsPerAccount: number };
    seconds: number;
    latencySeconds: number;
    quick: boolean;
    floorLatency: Map<Scenario, LoadResult>;
  },
): { text: string; failures: string[] } {
  const failures: string[] = [];
  const lines = [
    `${run.size.accounts} accounts × ${fmt(run.size.rowsPerAccount)} properties and as many agents; autocannon, 50 connections, ${run.seconds} s per run after a warm-up` +
      (run.quick ? '; ' : ` (${run.latencySeconds} s at a fixed rate); `) +
      `ratio = project ÷ floor (mean of the floor's runs).`,
    '',
    "| server | resource | request | floor req/s | project req/s | ratio | goal | p99 at 50 % (ms) | floor p99 at 50 % (ms) | p99 at the floor's 50 % rate (ms) | server loop delay p99 / max at 50 % (ms) | generator at 50 %: sent late p99 / longest stall (ms) | p95 at 200 req/s (ms) | errors |",
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const row of rows) {
    const spec = scenarios.find((s) => s.resource === row.scenario.resource && s.operation === row.scenario.operation)!;
    const floorRuns = floors.get(spec) ?? [];
    const floorRps = mean(floorRuns.map((r) => r.rps));
    const ratio = row.result.rps / floorRps;
    const errors =
      row.result.errors +
      (row.latency?.errors ?? 0) +
      (row.at200?.errors ?? 0) +
      floorRuns.reduce((sum, r) => sum + r.errors, 0);
    const met = ratio >= spec.goal ? '✓' : '✗';
    const p99 = row.latency ? `${row.latency.p99} ${row.latency.p99 < P99_GOAL_MS ? '✓' : '✗'}` : '–';
    const floorP99 = run.floorLatency.get(spec)?.p99 ?? '–';
    const atFloorRate = row.atFloorRate?.p99 ?? '–';
    const loop = row.loop ? `${row.loop.p99} / ${row.loop.max}` : '–';
    const late = row.latency ? `${row.latency.sendLateP99} / ${row.latency.generatorStallMax}` : '–';
    const p95 = row.at200 ? `${row.at200.p95} ${row.at200.p95 < P95_AT_200_GOAL_MS ? '✓' : '✗'}` : '–';
    const name = `${row.scenario.operation === 'get' ? 'GET by id' : row.scenario.operation === 'list' ? 'GET page (25, status)' : 'PATCH one field'}`;
    lines.push(
      `| ${VARIANT_NAMES[row.variant]} | ${row.scenario.resource} | ${name} | ${fmt(floorRps)} | ${fmt(row.result.rps)} | ${ratio.toFixed(2)}× | ≥ ${spec.goal}× ${met} | ${p99} | ${floorP99} | ${atFloorRate} | ${loop} | ${late} | ${p95} | ${errors} |`,
    );
    const label = `${row.variant} ${row.scenario.resource} ${row.scenario.operation}`;
    if (ratio < spec.guard)
      failures.push(`${label}: ${ratio.toFixed(2)}× the floor, below the guard of ${spec.guard}×`);
    if (errors > 0) failures.push(`${label}: ${errors} failed requests`);
  }
  return { text: lines.join('\n'), failures };
}

/** Replaces the table between the markers of bench/RESULTS.md (the hand-written history stays). */
export function writeResults(table: string): void {
  const text = readFileSync(RESULTS, 'utf8');
  const start = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  if (start < 0 || end < start) throw new Error(`bench/RESULTS.md has no ${BEGIN} … ${END} section.`);
  const stamped = `${BEGIN}\nLast run: ${new Date().toISOString().slice(0, 10)}.\n\n${table}\n${END}`;
  writeFileSync(RESULTS, text.slice(0, start) + stamped + text.slice(end + END.length));
}
