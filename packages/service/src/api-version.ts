import fp from 'fastify-plugin';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply } from 'fastify';
import type { Db, PrismaClient } from '@platform/db';

/** An API version (`v1`, `leads/v1`) with a sunset date and the link to its successor. */
export interface ApiDeprecation {
  version: string;
  sunset: Date;
  successor: string;
}

export interface ApiVersionPluginOptions {
  db: PrismaClient;
  now: () => Date;
  /** The version of the context, its prefix without the leading slash: `v1`, `leads/v1`. */
  version: string;
  /** A last call is written at most once per interval per application; default one minute. */
  recordIntervalMs?: number;
}

/** Applications remembered per process before old entries are dropped (they are then written once more). */
const MAX_REMEMBERED = 10_000;

/**
 * Records each application's last call of the version (its deprecation is announced for the
 * whole path by `announceDeprecationsByPath`). Registered after the auth plugin in an
 * authenticated context.
 */
export const apiVersion = fp<ApiVersionPluginOptions>(
  async (app, { db, now, version, recordIntervalMs = 60_000 }) => {
    const recorder = lastCallRecorder({ db, version, intervalMs: recordIntervalMs });
    // After the answer, off the request's path: any answer to a known key (also 403, 429) is a call of the version.
    // A plain hook calling `done` (no promise per request).
    app.addHook('onResponse', (request, _reply, done) => {
      const applicationId = request.auth?.applicationId;
      if (applicationId) recorder.record(applicationId, now(), request.log);
      done();
    });
    app.addHook('onClose', async () => recorder.settle());
  },
  { name: 'platform-api-version' },
);

/**
 * For the server root: Deprecation, Sunset and Link on every answer under a deprecated version's
 * prefix — its operations (errors of the key check included, onSend runs for them too), unknown
 * paths, `openapi.json` and `docs`.
 */
export function announceDeprecationsByPath(app: FastifyInstance, deprecations: readonly ApiDeprecation[]): void {
  const byPrefix = deprecations.map((deprecation) => ({
    prefix: `/${deprecation.version}`,
    announce: announcer(deprecation),
  }));
  if (byPrefix.length === 0) return;
  app.addHook('onSend', (request, reply, _payload, done) => {
    const path = request.url.split('?')[0];
    byPrefix.find(({ prefix }) => path === prefix || path.startsWith(`${prefix}/`))?.announce(reply);
    done();
  });
}

function announcer(deprecation: ApiDeprecation): (reply: FastifyReply) => void {
  const sunset = deprecation.sunset.toUTCString();
  const successorLink = `<${deprecation.successor}>; rel="successor-version"`;
  return (reply) => {
    reply.header('deprecation', 'true');
    reply.header('sunset', sunset);
    reply.header('link', withLink(reply.getHeader('link'), successorLink));
  };
}

/** Appends the successor link to a Link header already set (e.g. pagination), once. */
function withLink(existing: string | number | string[] | undefined, link: string): string {
  const links = existing === undefined ? [] : [existing].flat().map(String);
  if (links.some((value) => value.includes(link))) return links.join(', ');
  return [...links, link].join(', ');
}

/**
 * Upserts `application_api_calls` at most once per interval per application in this process;
 * the condition keeps a late write (or another instance's) from moving the time backwards.
 */
function lastCallRecorder(options: { db: Pick<PrismaClient, '$executeRaw'>; version: string; intervalMs: number }) {
  const written = new Map<string, number>();
  const pending = new Set<Promise<void>>();
  return {
    record(applicationId: string, at: Date, log: FastifyBaseLogger): void {
      const last = written.get(applicationId);
      if (last !== undefined && at.getTime() - last < options.intervalMs) return;
      if (written.size >= MAX_REMEMBERED) forgetOlderThan(written, at.getTime() - options.intervalMs);
      // Remembered before the write, also when it fails: an unreachable database is not asked again on every request.
      written.set(applicationId, at.getTime());
      const write = options.db.$executeRaw`
        INSERT INTO application_api_calls (application_id, api_version, last_called_at)
        VALUES (${applicationId}, ${options.version}, ${at})
        ON CONFLICT (application_id, api_version) DO UPDATE SET last_called_at = EXCLUDED.last_called_at
        WHERE application_api_calls.last_called_at < EXCLUDED.last_called_at`.then(
        () => undefined,
        (error: unknown) =>
          log.warn(
            { error: error instanceof Error ? error.message : String(error), version: options.version },
            'last API call not recorded',
          ),
      );
      pending.add(write);
      void write.finally(() => pending.delete(write));
    },
    /** Resolves when the writes under way are done (on close, before the database goes). */
    async settle(): Promise<void> {
      await Promise.all(pending);
    },
  };
}

function forgetOlderThan(written: Map<string, number>, threshold: number): void {
  for (const [applicationId, at] of written) if (at < threshold) written.delete(applicationId);
  // All recent: start over rather than grow without bound.
  if (written.size >= MAX_REMEMBERED) written.clear();
}

/** Applications that called the version since `since`, most recent call first (the CLI's deprecation notices). */
export function callersOfVersion(db: Db, version: string, since: Date) {
  return db.applicationApiCall.findMany({
    where: { api_version: version, last_called_at: { gte: since } },
    select: { application_id: true, last_called_at: true },
    orderBy: [{ last_called_at: 'desc' }, { application_id: 'asc' }],
  });
}
