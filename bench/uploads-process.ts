// The load generator's side of bench/uploads-service.ts (the property service in a process of its
// own), shared by bench/uploads.ts and bench/renditions.ts: starting it, and its answers.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

/** What the service tells of the sandbox's children since the last mark (bytes, ms). */
export interface SandboxMemory {
  /** The largest VmRSS of one child, sampled every 50 ms. */
  peakRss: number;
  /** The largest VmRSS of all children together. */
  peakTotal: number;
  /** The largest VmHWM of a child seen (the most it held since it started, possibly before the mark). */
  hwm: number;
  /** The most children alive at once. */
  most: number;
  /** The pool's samples of its tasks (`onTask`): the children's peak RSS, read every 20 ms while busy, and the durations. */
  tasks: { count: number; failed: number; peakRssMedian: number; peakRssMax: number; msMedian: number; msMax: number };
}

export interface UploadsService {
  /** The property API. */
  api: string;
  /** The bare `node:http` server of the blob files. */
  bare: string;
  /** `mark`: RSS now, the peaks restart; `peak`: RSS, its peak, the sandbox's and the event loop's delay (ms) since the last mark. */
  command(name: 'mark'): Promise<{ rss: number }>;
  command(
    name: 'peak',
  ): Promise<{ rss: number; peak: number; sandbox: SandboxMemory; loopDelay: { p99: number; max: number } }>;
  /** The service's process id. */
  pid: number;
}

/**
 * Starts bench/uploads-service.ts on the database at `databaseUrl` with its data under `dataDir`;
 * pushes its stop onto `cleanups`. `profile`: a CPU profile into /tmp/prof.
 */
export async function startUploadsService(options: {
  databaseUrl: string;
  dataDir: string;
  pepper: string;
  profile?: boolean;
  cleanups: (() => unknown)[];
}): Promise<UploadsService> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...(options.profile ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] : []),
      '--import',
      'tsx',
      new URL('./uploads-service.ts', import.meta.url).pathname,
    ],
    {
      env: {
        ...process.env,
        BENCH_DATABASE_URL: options.databaseUrl,
        BENCH_DATA_DIR: options.dataDir,
        BENCH_PEPPER: options.pepper,
      },
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  options.cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
  });
  const waiting: ((line: string) => void)[] = [];
  const failed = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`The service process exited (${code}).`))),
  );
  failed.catch(() => {});
  createInterface({ input: child.stdout! }).on('line', (line) => waiting.shift()?.(line));
  const next = () => Promise.race([new Promise<string>((resolve) => waiting.push(resolve)), failed]);
  const ready = JSON.parse(await next()) as { api: string; bare: string };
  async function command(name: 'mark' | 'peak') {
    const answer = next();
    child.stdin!.write(`${name}\n`);
    return JSON.parse(await answer) as {
      rss: number;
      peak: number;
      sandbox: SandboxMemory;
      loopDelay: { p99: number; max: number };
    };
  }
  return { ...ready, command: command as UploadsService['command'], pid: child.pid! };
}

/** `count` jobs, `parallel` at a time; the elapsed seconds. */
export async function pool(count: number, parallel: number, job: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) await job(next++);
    }),
  );
  return (performance.now() - start) / 1000;
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
