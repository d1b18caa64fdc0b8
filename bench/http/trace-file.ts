// One fixed-rate run as `pnpm bench:http --trace DIR` keeps it, for trace-summary.ts.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KernelMonitorPass } from './kernel-monitor.js';
import type { RequestTrace } from './load.js';

export interface TraceFile extends RequestTrace {
  /** e.g. `services agents patch at 406 req/s`. */
  label: string;
  p99: number;
  /** The kernel memory monitor's passes from 1 s before the first request was due to 1 s after the last. */
  kernelMonitorPasses: KernelMonitorPass[];
}

/** The folder for a run's traces: new, or empty (the traces of two runs would be read as one). */
export function traceFolder(dir: string): string {
  if (existsSync(dir) && readdirSync(dir).length > 0) throw new Error(`--trace: ${dir} is not empty.`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

export function writeTraceFile(dir: string, number: number, trace: TraceFile): void {
  const name = `${String(number).padStart(2, '0')}-${trace.label.replaceAll(' ', '-').replaceAll('/', '')}.json`;
  writeFileSync(join(dir, name), JSON.stringify(trace));
}
