// What the requests of the fixed-rate runs traced by `pnpm bench:http --trace DIR` say about the tail:
// its slow episodes, how many of them begin at a pass of the kernel's memory monitor, and the p99
// of the requests due away from those passes.
//   tsx bench/http/trace-summary.ts DIR [--slow-ms 15]
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { KernelMonitorPass } from './kernel-monitor.js';

interface Trace {
  label: string;
  p99: number;
  countedAt: number;
  kernelMonitorPasses: KernelMonitorPass[];
  requests: [due: number, latency: number][];
}

const { values, positionals } = parseArgs({ allowPositionals: true, options: { 'slow-ms': { type: 'string', default: '15' } } });
if (positionals.length !== 1) {
  console.error('usage: tsx bench/http/trace-summary.ts DIR [--slow-ms 15]');
  process.exit(2);
}
const slowMs = Number(values['slow-ms']);
/** An episode begins "at" a pass when within this many ms of its start (a pass takes up to ~25 ms). */
const NEAR_MS = 40;
/** "Away" from passes: due this long after one began and before the next begins. */
const AFTER_MS = 100;
const BEFORE_MS = 80;

const p99Of = (latencies: number[]) => {
  const sorted = [...latencies].sort((a, b) => a - b);
  return sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor(0.99 * sorted.length))]!;
};

/** Slow requests grouped into episodes: one ends when no slow request is due within 50 ms. */
function episodesOf(requests: Trace['requests']): { start: number; worst: number; requests: number }[] {
  const episodes: { start: number; end: number; worst: number; requests: number }[] = [];
  for (const [due, latency] of requests) {
    if (latency <= slowMs) continue;
    const last = episodes.at(-1);
    if (last && due - last.end < 50) Object.assign(last, { end: due, worst: Math.max(last.worst, latency), requests: last.requests + 1 });
    else episodes.push({ start: due, end: due, worst: latency, requests: 1 });
  }
  return episodes;
}

for (const file of readdirSync(positionals[0]!).filter((f) => f.endsWith('.json')).sort()) {
  const trace = JSON.parse(readFileSync(join(positionals[0]!, file), 'utf8')) as Trace;
  const passes = trace.kernelMonitorPasses.map((pass) => pass.at - trace.countedAt);
  const episodes = episodesOf(trace.requests);
  const atPass = episodes.filter((e) => passes.some((p) => Math.abs(e.start - p) <= NEAR_MS)).length;
  const away = trace.requests.filter(([due]) => {
    const before = passes.filter((p) => p <= due).at(-1);
    const after = passes.find((p) => p > due);
    return (before === undefined || due - before > AFTER_MS) && (after === undefined || after - due > BEFORE_MS);
  });
  const cpu = trace.kernelMonitorPasses.map((pass) => pass.cpuMs);
  console.log(`${trace.label}: p99 ${trace.p99} ms over ${trace.requests.length} requests`);
  console.log(`  episodes above ${slowMs} ms: ${episodes.length}, ${episodes.reduce((n, e) => n + e.requests, 0)} requests; worst ${Math.max(0, ...episodes.map((e) => e.worst)).toFixed(1)} ms`);
  if (passes.length === 0) {
    console.log('  kernel memory monitor: no pass seen');
    continue;
  }
  const interval = passes.length > 1 ? (passes.at(-1)! - passes[0]!) / (passes.length - 1) : Number.NaN;
  console.log(`  kernel memory monitor: ${passes.length} passes, one every ${interval.toFixed(0)} ms, ${(cpu.reduce((a, b) => a + b, 0) / cpu.length).toFixed(1)} ms of CPU each (max ${Math.max(...cpu).toFixed(1)})`);
  console.log(`  episodes beginning within ${NEAR_MS} ms of a pass: ${atPass} of ${episodes.length}`);
  console.log(`  p99 of the ${away.length} requests (${((100 * away.length) / trace.requests.length).toFixed(0)} %) due ${AFTER_MS} ms after a pass and ${BEFORE_MS} ms before the next: ${p99Of(away.map(([, l]) => l)).toFixed(1)} ms`);
}
