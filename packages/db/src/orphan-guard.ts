import { spawn, type ChildProcess } from 'node:child_process';
import type { Writable } from 'node:stream';

/**
 * The guard: a tiny node process of its own group that reads `watch <pid> <signal>` and
 * `release <pid>` lines and, once its stdin ends — its parent exited or was killed, even with
 * SIGKILL, since the kernel then closes the pipe — sends each watched pid its signal.
 */
const GUARD_SCRIPT = `
const watched = new Map();
let pending = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  pending += chunk;
  for (let end = pending.indexOf('\\n'); end >= 0; end = pending.indexOf('\\n')) {
    const [command, pid, signal] = pending.slice(0, end).split(' ');
    pending = pending.slice(end + 1);
    if (command === 'watch') watched.set(Number(pid), signal);
    else watched.delete(Number(pid));
  }
});
process.stdin.on('end', () => {
  for (const [pid, signal] of watched) try { process.kill(pid, signal); } catch {}
  process.exit(0);
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => {});
`;

let guard: { process: ChildProcess; input: Writable } | undefined;

function theGuard(): Writable {
  if (!guard) {
    const child = spawn(process.execPath, ['-e', GUARD_SCRIPT], {
      detached: true,
      stdio: ['pipe', 'ignore', 'ignore'],
      env: {},
    });
    child.on('error', () => {}); // without a guard the children are still stopped on a normal exit
    child.unref();
    const input = child.stdin!;
    input.on('error', () => {});
    // The pipe must not keep this process alive; it closes when this process ends.
    (input as Writable & { unref?: () => void }).unref?.();
    guard = { process: child, input };
  }
  return guard.input;
}

/**
 * Makes sure a child server in a process group of its own (which a Ctrl-C in the terminal does
 * not reach) is stopped with `signal` when this process ends without stopping it — also when it
 * is killed with SIGKILL, where no exit handler runs. Call `release` once it is stopped.
 */
export function stopWithThisProcess(pid: number, signal: NodeJS.Signals): { release(): void } {
  theGuard().write(`watch ${pid} ${signal}\n`);
  return { release: () => void theGuard().write(`release ${pid}\n`) };
}
