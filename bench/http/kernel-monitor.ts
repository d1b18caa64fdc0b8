// When the kernel's memory-access monitor (DAMON: `kdamond` threads) ran during a benchmark run.
// On this machine kind it samples the physical memory every 500 ms and takes up to ~40 ms of a
// core per pass while the benchmark's processes hold their memory: the periodic part of the
// latency tail (bench/RESULTS.md, HTTP hot paths). Recorded with `--trace`, to tell that part from ours.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface KernelMonitorPass {
  /** Wall-clock start and end of the pass, ms since the epoch (to within a poll, 2 ms, and a scheduler tick). */
  at: number;
  end: number;
  /** CPU time the monitor used in the pass, ms. */
  cpuMs: number;
}

export interface KernelMonitorWatch {
  /** The passes seen so far, in the order they began (none when the kernel runs no such monitor). */
  passes(): KernelMonitorPass[];
  stop(): void;
}

/** Thread ids of the running `kdamond.N` kernel threads; none where /proc cannot be read. */
function monitorThreads(): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  return entries
    .filter((entry) => {
      try {
        return /^\d+$/.test(entry) && readFileSync(`/proc/${entry}/comm`, 'utf8').startsWith('kdamond');
      } catch {
        return false; // the process ended while listed
      }
    })
    .map(Number);
}

const POLLER = fileURLToPath(new URL('./kernel-monitor-poller.ts', import.meta.url));

/** Starts watching (a separate process polls, so the load generator's loop stays free of it). */
export function watchKernelMonitor(): KernelMonitorWatch {
  const threads = process.platform === 'linux' ? monitorThreads() : [];
  if (threads.length === 0) return { passes: () => [], stop: () => {} };
  const passes: KernelMonitorPass[] = [];
  const child = spawn(process.execPath, ['--import', 'tsx', POLLER, ...threads.map(String)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let stopped = false;
  child.on('exit', (code, signal) => {
    if (!stopped) console.error(`the kernel monitor's poller stopped (${signal ?? code}); later traces have no passes`);
  });
  let pending = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop()!;
    for (const line of lines) {
      const [at, end, cpuMs] = line.split(' ').map(Number) as [number, number, number];
      passes.push({ at, end, cpuMs });
    }
  });
  return {
    passes: () => [...passes].sort((a, b) => a.at - b.at),
    stop: () => {
      stopped = true;
      child.stdin.end();
      child.kill();
    },
  };
}
