/** The embedded PostgreSQL cannot start; the message says why and what to do, in one line. */
export class EmbeddedPostgresError extends Error {}

/** The data directory is held by a running server (another process, maybe on another port). */
export class EmbeddedPostgresBusyError extends EmbeddedPostgresError {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
    readonly port: number,
  ) {
    super(`The embedded database in ${dataDir} is already held by a PostgreSQL server (pid ${pid}) on port ${port}.`);
  }
}
