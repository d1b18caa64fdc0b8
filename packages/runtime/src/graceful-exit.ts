import { constants } from 'node:os';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * The same signal again within this time is the same request: a terminal's Ctrl-C reaches every
 * process of its group, and `pnpm start` forwards it to this process once more.
 */
const DUPLICATE_WINDOW_MS = 1_000;

export interface GracefulExitOptions {
  /** How long the shutdown may take before the process exits anyway (status 1). */
  graceMs: number;
  /** Closes everything; the process exits once it resolves. */
  shutdown: (reason: { signal?: NodeJS.Signals; error?: unknown }) => Promise<void>;
  log: (line: string) => void;
  onError: (error: unknown, message: string) => void;
}

/**
 * Shuts down once on SIGINT, SIGTERM or SIGHUP (status 0 when everything closed) or after an
 * uncaught error (status 1). A second, separate signal while shutting down exits at once (130 for
 * Ctrl-C): whoever presses Ctrl-C twice wants out now; the children are still stopped on exit.
 */
export function exitGracefully({ graceMs, shutdown, log, onError }: GracefulExitOptions): void {
  let started: { at: number; signal?: NodeJS.Signals } | undefined;
  const begin = (reason: { signal?: NodeJS.Signals; error?: unknown }) => {
    started = { at: Date.now(), signal: reason.signal };
    const timer = setTimeout(() => {
      log(`shutdown took longer than ${graceMs / 1000} s: exiting anyway`);
      process.exit(1);
    }, graceMs);
    timer.unref();
    shutdown(reason).then(
      () => process.exit(reason.error === undefined ? 0 : 1),
      (error: unknown) => {
        onError(error, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (!started) return begin({ signal });
    if (signal === started.signal && Date.now() - started.at < DUPLICATE_WINDOW_MS) return;
    log(`${signal} again: exiting now, without waiting for the rest of the shutdown`);
    process.exit(128 + constants.signals[signal]);
  };
  const onFatal = (error: unknown) => {
    if (started) {
      onError(error, 'error during shutdown');
      return;
    }
    onError(error, 'stopping after an unexpected error');
    begin({ error });
  };
  for (const signal of SIGNALS) process.on(signal, onSignal);
  process.on('uncaughtException', onFatal);
  process.on('unhandledRejection', onFatal);
}
