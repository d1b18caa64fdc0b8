// What the requests of the fixed-rate runs traced by `pnpm bench:http --trace DIR` say about the tail:
// its slow episodes, how many of them begin at a pass of the kernel's memory monitor, and the p99
// of the requests due away from those passes.
//   tsx bench/http/trace-summary.ts DIR [--slow-ms 15]
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { percentile } from './load.js';
import type { TraceFile } from './trace-file.js';

const USAGE = 'usage: tsx bench/http/trace-summary.ts DIR [--slow-ms 15]';
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { 'slow-ms': { type: 'string', default: '15' } },
});
const slowMs = Number(values['slow-ms']);
if (positionals.length !== 1 || !(slowMs > 0)) {
  console.error(USAGE);
  process.exit(2);
}
/** An episode begins "at" a pass when it begins this close to the pass's start, before or after. */
const NEAR_MS = 40;
/** "Away" from passes: due this long after one began and before the next begins. */
const AFTER_MS = 100;
const BEFORE_MS = 80;
/** Slow requests due closer than this to each other are one episode. */
const EPISODE_GAP_MS = 50;

interface Request {
  due: number;
  latency: number;
}

/** Slow requests, in due order, grouped into episodes. */
function episodesOf(requests: Request[]): { start: number; worst: number; requests: number }[] {
  const episodes: { start: number; end: number; worst: number; requests: number }[] = [];
  for (const { due, latency } of requests) {
    if (latency <= slowMs) continue;
    const last = episodes.at(-1);
    if (last && due - last.end < EPISODE_GAP_MS)
      Object.assign(last, { end: due, worst: Math.max(last.worst, latency), requests: last.requests + 1 });
    else episodes.push({ start: due, end: due, worst: latency, requests: 1 });
  }
  return episodes;
}

const ms = (value: number | undefined) =>
  value === undefined || Number.isNaN(value) ? 'none' : `${value.toFixed(1)} ms`;
const p99 = (latencies: number[]) =>
  percentile(
    [...latencies].sort((a, b) => a - b),
    0.99,
  );

function summarise(trace: TraceFile) {
  const requests: Request[] = [];
  trace.latencies.forEach((latency, k) => latency !== null && requests.push({ due: (k * 1000) / trace.rate, latency }));
  const failed = trace.latencies.length - requests.length;
  const episodes = episodesOf(requests);
  console.log(
    `${trace.label}: p99 ${ms(trace.p99 ?? undefined)} over ${requests.length} requests${failed > 0 ? ` (${failed} failed, left out)` : ''}`,
  );
  console.log(
    `  episodes above ${slowMs} ms: ${episodes.length}, ${episodes.reduce((n, e) => n + e.requests, 0)} requests; worst ${ms(Math.max(0, ...episodes.map((e) => e.worst)))}`,
  );
  const passes = trace.kernelMonitorPasses.map((pass) => pass.at - trace.countedAt);
  if (passes.length === 0) {
    console.log('  kernel memory monitor: no pass seen');
    return;
  }
  const cpu = trace.kernelMonitorPasses.map((pass) => pass.cpuMs);
  const interval =
    passes.length > 1 ? `one every ${((passes.at(-1)! - passes[0]!) / (passes.length - 1)).toFixed(0)} ms, ` : '';
  console.log(
    `  kernel memory monitor: ${passes.length} passes, ${interval}${(cpu.reduce((a, b) => a + b, 0) / cpu.length).toFixed(1)} ms of CPU each (max ${Math.max(...cpu).toFixed(1)})`,
  );
  const nearPass = (t: number) => passes.some((p) => Math.abs(t - p) <= NEAR_MS);
  const atPass = episodes.filter((e) => nearPass(e.start)).length;
  // what share of episodes would begin near a pass by chance: the share of the run's moments that are near one
  const duration = trace.latencies.length * (1000 / trace.rate);
  const chance = requests.filter((r) => nearPass(r.due)).length / Math.max(1, requests.length);
  console.log(
    `  episodes beginning within ${NEAR_MS} ms of a pass: ${atPass} of ${episodes.length} (by chance: about ${(chance * 100).toFixed(0)} % of ${(duration / 1000).toFixed(0)} s)`,
  );
  const away = requests.filter(({ due }) => {
    const before = passes.filter((p) => p <= due).at(-1);
    const after = passes.find((p) => p > due);
    return (before === undefined || due - before > AFTER_MS) && (after === undefined || after - due > BEFORE_MS);
  });
  const share = requests.length === 0 ? 0 : (100 * away.length) / requests.length;
  console.log(
    `  p99 of the ${away.length} requests (${share.toFixed(0)} %) due ${AFTER_MS} ms after a pass and ${BEFORE_MS} ms before the next: ${ms(p99(away.map((r) => r.latency)))}`,
  );
}

for (const file of readdirSync(positionals[0]!)
  .filter((f) => f.endsWith('.json'))
  .sort()) {
  summarise(JSON.parse(readFileSync(join(positionals[0]!, file), 'utf8')) as TraceFile);
}
