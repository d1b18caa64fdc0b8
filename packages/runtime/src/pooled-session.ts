import pg from 'pg';

const UTC_NAMES = new Set(['utc', 'etc/utc', 'uct', 'etc/uct', 'universal', 'etc/universal', 'zulu', 'etc/zulu']);

/**
 * Behind a transaction pooler the services send no session settings (PgBouncer refuses them in
 * the start-up message, and a `SET` would stay on a server connection others get next): the
 * pooler or the role must give every session TimeZone UTC, which the stored timestamps need.
 * Returns why the sessions are unfit (start refused); warns when statements or idle
 * transactions have no time limit.
 */
export async function pooledSessionProblem(url: string, warn: (line: string) => void): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  client.on('error', () => {});
  try {
    await client.connect();
    const { rows } = await client.query<{ time_zone: string; statement_timeout: string; idle_timeout: string }>(
      `SELECT current_setting('TimeZone') AS time_zone, current_setting('statement_timeout') AS statement_timeout,
              current_setting('idle_in_transaction_session_timeout') AS idle_timeout`,
    );
    const [session] = rows;
    if (!UTC_NAMES.has(session.time_zone.toLowerCase()))
      return `DATABASE_POOLING=transaction: the pooled sessions have TimeZone ${session.time_zone}, and must have UTC: set timezone=UTC on the pooler's database entry (PgBouncer) or ALTER ROLE <user> SET TimeZone = 'UTC' (docs/scaling.md).`;
    if (session.statement_timeout === '0')
      warn(
        "WARNING: the pooled sessions have no statement_timeout: set one for the role (ALTER ROLE <user> SET statement_timeout = '60s'), as the services do on a direct connection.",
      );
    if (session.idle_timeout === '0')
      warn(
        "WARNING: the pooled sessions have no idle_in_transaction_session_timeout: set one for the role (ALTER ROLE <user> SET idle_in_transaction_session_timeout = '60s'), so that a transaction left open by a crash does not hold its locks.",
      );
    return undefined;
  } finally {
    await client.end().catch(() => {});
  }
}
