// The table of bench/http/run.ts and its place in bench/RESULTS.md (between two markers).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { LoadResult, Scenario } from './load.js';
import type { LoopDelay } from './loop-delay.js';
import type { Floor, Variant } from './processes.js';

export interface Row {
  variant: Variant;
  scenario: Scenario;
  result: LoadResult;
  /** At the tail's rate, half the strong floor's maximum: the same load as the strong floor's run (`FloorTail`). */
  tail?: LoadResult;
  /** The project's event-loop delay during the tail run. */
  loop?: LoopDelay;
  /** Pages at 200 requests/s (goal: p95 < 15 ms). */
  at200?: LoadResult;
}

/** The strong floor at half its (first) maximum: the tail this machine allows, to read the project's against. */
export interface FloorTail {
  rate: number;
  result: LoadResult;
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
/** The project's p99 at most this many times the strong floor's, at the same rate. */
const TAIL_GOAL = 1.5;
const P95_AT_200_GOAL_MS = 15;

const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
const fmt = (n: number) => Math.round(n).toLocaleString('en');
const errorsOf = (results: (LoadResult | undefined)[]) => results.reduce((total, r) => total + (r?.errors ?? 0), 0);

export function report(
  rows: Row[],
  floors: Record<Floor, Map<Scenario, LoadResult[]>>,
  scenarios: (Scenario & { goal: number; guard: number })[],
  run: {
    size: { accounts: number; rowsPerAccount: number };
    seconds: number;
    latencySeconds: number;
    /** Whether the tail runs (and pages at 200 req/s) were done. */
    latency: boolean;
    floorTail: Map<Scenario, FloorTail>;
  },
): { text: string; failures: string[] } {
  const failures: string[] = [];
  const lines = [
    `${run.size.accounts} accounts × ${fmt(run.size.rowsPerAccount)} properties and as many agents; autocannon, 50 connections, ${run.seconds} s per run after a warm-up` +
      (run.latency ? ` (${run.latencySeconds} s at a fixed rate)` : '') +
      `. ratio = project ÷ strong floor (keys cached 4 s, statements prepared; mean of its runs), which the goals are set against; ` +
      `÷ plain = project ÷ plain floor (no cache, nothing prepared), for comparison only.` +
      (run.latency
        ? ` Tail: the p99 of the strong floor and of the project at the same rate, half the strong floor's maximum (goal: the project's ≤ ${TAIL_GOAL}× the floor's); pages' p95 at 200 req/s (goal < ${P95_AT_200_GOAL_MS} ms).`
        : ''),
    '',
    '| server | resource | request | strong floor req/s | plain floor req/s | project req/s | ratio ÷ strong | goal | ÷ plain | CPU µs / request: strong floor / project | rate for the tail (req/s) | p99 strong floor (ms) | p99 project (ms) | p99 project ÷ strong | server loop delay p99 / max (ms) | generator late p99 / stall (ms) | p95 at 200 req/s (ms) | errors |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const row of rows) {
    const spec = scenarios.find((s) => s.resource === row.scenario.resource && s.operation === row.scenario.operation)!;
    const strongRuns = floors.strong.get(spec) ?? [];
    const plainRuns = floors.plain.get(spec) ?? [];
    const strongRps = mean(strongRuns.map((r) => r.rps));
    const plainRps = mean(plainRuns.map((r) => r.rps));
    const ratio = row.result.rps / strongRps;
    const floorTail = run.floorTail.get(spec);
    const errors = errorsOf([row.result, row.tail, row.at200, floorTail?.result, ...strongRuns, ...plainRuns]);
    const met = ratio >= spec.goal ? '✓' : '✗';
    const cpu = `${fmt(mean(strongRuns.map((r) => r.cpuPerRequest ?? Number.NaN)))} / ${fmt(row.result.cpuPerRequest ?? Number.NaN)}`;
    const tail = tailCells(floorTail, row.tail);
    const loop = row.loop ? `${row.loop.p99} / ${row.loop.max}` : '–';
    const late = row.tail ? `${row.tail.sendLateP99} / ${row.tail.generatorStallMax}` : '–';
    const p95 = row.at200 ? `${row.at200.p95} ${row.at200.p95 < P95_AT_200_GOAL_MS ? '✓' : '✗'}` : '–';
    const name = `${row.scenario.operation === 'get' ? 'GET by id' : row.scenario.operation === 'list' ? 'GET page (25, status)' : 'PATCH one field'}`;
    lines.push(
      `| ${VARIANT_NAMES[row.variant]} | ${row.scenario.resource} | ${name} | ${fmt(strongRps)} | ${fmt(plainRps)} | ${fmt(row.result.rps)} | ${ratio.toFixed(2)}× | ≥ ${spec.goal}× ${met} | ${(row.result.rps / plainRps).toFixed(2)}× | ${cpu} | ${tail} | ${loop} | ${late} | ${p95} | ${errors} |`,
    );
    const label = `${row.variant} ${row.scenario.resource} ${row.scenario.operation}`;
    if (ratio < spec.guard)
      failures.push(
        `${label}: ${ratio.toFixed(2)}× the strong floor, below the guard of ${spec.guard}× (half the goal of ${spec.goal}×)`,
      );
    if (errors > 0) failures.push(`${label}: ${errors} failed requests`);
  }
  return { text: lines.join('\n'), failures };
}

/** The tail's four cells: its rate, the strong floor's p99 and the project's at it, and their quotient against the goal. */
function tailCells(floor: FloorTail | undefined, project: LoadResult | undefined): string {
  if (!floor || !project) return '– | – | – | –';
  const quotient = project.p99 / floor.result.p99;
  return `${fmt(floor.rate)} | ${floor.result.p99} | ${project.p99} | ${quotient.toFixed(2)}× ${quotient <= TAIL_GOAL ? '✓' : '✗'}`;
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
