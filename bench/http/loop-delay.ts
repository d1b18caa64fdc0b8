// The project's event-loop delay during a latency run, from its own metrics (prom-client's
// monitorEventLoopDelay histogram, reset at every scrape): whether a slow tail was spent inside
// the server's event loop (the loop busy or stalled) or outside it (a core taken by PostgreSQL
// or the load generator, the network stack).

export interface LoopDelay {
  p99: number;
  max: number;
}

/** The histogram samples every 10 ms and counts that interval in each value: it is taken off. */
const SAMPLING_MS = 10;

/** Reads (and so resets) the delay since the last scrape, in milliseconds. */
export async function scrapeLoopDelay(metricsUrl: string): Promise<LoopDelay> {
  const text = await (await fetch(`${metricsUrl}/metrics`)).text();
  const seconds = (name: string) => {
    const match = new RegExp(`^${name} ([0-9.e+-]+)$`, 'm').exec(text);
    if (!match) throw new Error(`${metricsUrl}/metrics has no ${name}.`);
    return Number(match[1]);
  };
  const ms = (name: string) => Math.max(0, Math.round((seconds(name) * 1000 - SAMPLING_MS) * 10) / 10);
  return { p99: ms('nodejs_eventloop_lag_p99_seconds'), max: ms('nodejs_eventloop_lag_max_seconds') };
}
