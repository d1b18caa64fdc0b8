// When the kernel's memory-access monitor (DAMON: `kdamond` threads) ran during a benchmark run.
// On this machine kind it samples the physical memory every 500 ms and takes 8–25 ms of a core
// per pass while the benchmark's processes hold their memory: the periodic part of the latency
// tail (bench/RESULTS.md, HTTP hot paths). Recorded with `--trace`, to tell that part from ours.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

export interface KernelMonitorPass {
  /** Wall-clock start of the pass, ms since the epoch. */
  at: number;
  /** CPU time the monitor used in the pass, ms. */
  cpuMs: number;
}

export interface KernelMonitorWatch {
  /** The passes seen so far (empty when the kernel runs no such monitor). */
  passes(): KernelMonitorPass[];
  stop(): void;
}

/** Thread ids of the running `kdamond.N` kernel threads. */
function monitorThreads(): number[] {
  const ids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').startsWith('kdamond')) ids.push(Number(entry));
    } catch {
      // the process ended while listed
    }
  }
  return ids;
}

// A separate process polls the threads' run time (schedstat, ns) every 2 ms: the load generator's
// loop stays free of it. A pass is a stretch of polls in which the run time grew.
const POLLER = `
const { readFileSync } = require('node:fs');
const ids = process.argv.slice(1);
const runTime = (id) => { try { return Number(readFileSync('/proc/' + id + '/schedstat', 'utf8').split(' ')[0]); } catch { return 0; } };
const last = new Map(ids.map((id) => [id, runTime(id)]));
const open = new Map();
setInterval(() => {
  for (const id of ids) {
    const now = runTime(id);
    const grew = now - last.get(id);
    last.set(id, now);
    const pass = open.get(id);
    if (grew > 0) {
      if (pass) pass.ns += grew; else open.set(id, { at: Date.now(), ns: grew });
    } else if (pass) {
      process.stdout.write(pass.at + ' ' + (pass.ns / 1e6).toFixed(2) + '\\n');
      open.delete(id);
    }
  }
}, 2);
`;

/** Stretches of run time that begin this close to the last pass's start belong to it. */
const MERGE_MS = 60;

export function watchKernelMonitor(): KernelMonitorWatch {
  const threads = process.platform === 'linux' ? monitorThreads() : [];
  if (threads.length === 0) return { passes: () => [], stop: () => {} };
  const passes: KernelMonitorPass[] = [];
  const child: ChildProcess = spawn(process.execPath, ['-e', POLLER, ...threads.map(String)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let pending = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop()!;
    for (const line of lines) {
      const [at, cpuMs] = line.split(' ').map(Number) as [number, number];
      // a pass the scheduler interrupted shows as two stretches: one pass
      const last = passes.at(-1);
      if (last && at - last.at < MERGE_MS) last.cpuMs += cpuMs;
      else passes.push({ at, cpuMs });
    }
  });
  return { passes: () => passes, stop: () => void child.kill() };
}
