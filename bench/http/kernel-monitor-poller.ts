// The poller of kernel-monitor.ts, as its own process: reads the run time of the given kernel
// threads every 2 ms and prints one line per pass, `<start ms> <end ms> <CPU ms>` (wall clock).
// It stops when its standard input closes (the benchmark ended, however it ended).
import { readFileSync } from 'node:fs';

const POLL_MS = 2;
/** The run time of a running thread grows at a scheduler tick (every 4 ms at 250 Hz): a pass ends after this long without growth. */
const QUIET_MS = 10;

interface Pass {
  start: number;
  lastGrowth: number;
  ns: number;
}

/** Nanoseconds the thread has run, or undefined when it cannot be read (then the poll is skipped). */
function runTime(thread: string): number | undefined {
  try {
    return Number(readFileSync(`/proc/${thread}/schedstat`, 'utf8').split(' ')[0]);
  } catch {
    return undefined;
  }
}

const threads = process.argv.slice(2);
const last = new Map<string, number | undefined>(threads.map((thread) => [thread, runTime(thread)]));
const open = new Map<string, Pass>();
let previousPoll = Date.now();

const timer = setInterval(() => {
  const now = Date.now();
  for (const thread of threads) {
    const time = runTime(thread);
    const before = last.get(thread);
    if (time === undefined) continue;
    last.set(thread, time);
    if (before === undefined) continue;
    const pass = open.get(thread);
    if (time > before) {
      // it began after the previous poll, which saw no growth
      if (pass) Object.assign(pass, { lastGrowth: now, ns: pass.ns + (time - before) });
      else open.set(thread, { start: previousPoll, lastGrowth: now, ns: time - before });
    } else if (pass && now - pass.lastGrowth >= QUIET_MS) {
      process.stdout.write(`${pass.start} ${pass.lastGrowth} ${(pass.ns / 1e6).toFixed(2)}\n`);
      open.delete(thread);
    }
  }
  previousPoll = now;
}, POLL_MS);

process.stdin.resume().on('end', () => clearInterval(timer));
