import { until, type Receiver } from '@platform/testkit';

/** One rate-limited request of the failover test: when it started, its status, its RateLimit-Remaining (none: not counted). */
export interface Probe {
  at: number;
  status: number;
  remaining: number | undefined;
}

type Call = (method: string, path: string, body?: unknown) => Promise<Response>;

export const property = (title: string) => ({
  type: 'apartment',
  title,
  address: { postal_code: '10115', city: 'Berlin' },
});

/**
 * `writers` loops creating properties (each one a property.created event) and, with `probe`, a
 * GET every 100 ms noting its rate-limit counter, until `stop()`.
 */
export function startTraffic(call: Call, options: { writers: number; probe: boolean; label: string }) {
  const accepted: string[] = [];
  const refused: number[] = [];
  const probes: Probe[] = [];
  let running = true;
  const write = async (writer: number) => {
    for (let i = 0; running; i++) {
      const response = await call('POST', '/v1/properties', property(`${options.label} ${writer}-${i}`)).catch(
        () => undefined,
      );
      if (response?.status === 201) accepted.push(((await response.json()) as { id: string }).id);
      else refused.push(response?.status ?? 0);
    }
  };
  const probe = async () => {
    while (running && options.probe) {
      const at = Date.now();
      const response = await call('GET', '/v1/properties?limit=1').catch(() => undefined);
      const remaining = response?.headers.get('ratelimit-remaining');
      probes.push({ at, status: response?.status ?? 0, remaining: remaining ? Number(remaining) : undefined });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const loops = Promise.all([...Array.from({ length: options.writers }, (_, i) => write(i + 1)), probe()]);
  return {
    accepted,
    refused,
    probes,
    /** Resolves once `count` more writes than now were accepted. */
    acceptMore: async (count: number) => {
      const target = accepted.length + count;
      await until(async () => accepted.length >= target, 30_000);
    },
    stop: async () => {
      running = false;
      await loops;
    },
  };
}

/** The receiver's deliveries per property id, and when each was first seen (polled). */
export function deliveriesAt(receiver: Receiver, path: string) {
  const count = new Map<string, number>();
  const firstSeen = new Map<string, number>();
  const read = () => {
    count.clear();
    for (const request of receiver.received.filter((r) => r.path === path)) {
      const id = (JSON.parse(request.raw.toString()) as { data: { property_id: string } }).data.property_id;
      count.set(id, (count.get(id) ?? 0) + 1);
      if (!firstSeen.has(id)) firstSeen.set(id, Date.now());
    }
  };
  return {
    count,
    firstSeen,
    /** Polls until every id is delivered (or the deadline); resolves to the ids never delivered. */
    async waitForAll(ids: string[], timeoutMs: number): Promise<string[]> {
      const missing = () => (read(), ids.filter((id) => !count.has(id)));
      await until(async () => missing().length === 0, timeoutMs).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 2_000)); // a late repeat arrives by now
      return missing();
    },
    duplicates: () => [...count.values()].reduce((sum, n) => sum + n - 1, 0),
  };
}
