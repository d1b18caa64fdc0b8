import type { FastifyInstance } from 'fastify';

/** A dependency the service needs to answer requests; resolves when it is reachable. */
export type ReadinessCheck = () => Promise<unknown>;

/** A check that takes longer than this counts as failed: a hanging dependency is not a ready one. */
const CHECK_TIMEOUT_MS = 2_000;

async function outcome(check: ReadinessCheck): Promise<'ok' | 'unavailable'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), timeout]);
    return 'ok';
  } catch {
    return 'unavailable';
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `GET /health/live` (the process answers) and `GET /health/ready` (every dependency answers; 503
 * naming the one that does not), without a key and below the info log level: probes every few
 * seconds must not drown the request log.
 */
export function healthRoutes(app: FastifyInstance, checks: Record<string, ReadinessCheck>): void {
  const options = { config: { public: true }, logLevel: 'warn' as const, schema: { hide: true } };
  app.get('/health/live', options, async () => ({ status: 'ok' }));
  app.get('/health/ready', options, async (_request, reply) => {
    const names = Object.keys(checks);
    const results = await Promise.all(names.map((name) => outcome(checks[name])));
    const report = Object.fromEntries(names.map((name, i) => [name, results[i]]));
    const ready = results.every((result) => result === 'ok');
    if (!ready) void reply.status(503).header('retry-after', '5');
    return { status: ready ? 'ready' : 'unavailable', checks: report };
  });
}
