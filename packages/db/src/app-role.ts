import pg from 'pg';
import { scramSha256Verifier } from './scram.js';

/** The role the apps connect as, taken from their DATABASE_URL. */
export interface AppRole {
  name: string;
  password: string;
}

/** What the apps may do on every table and sequence of the migrated schemas: data, never structure. */
const TABLE_PRIVILEGES = 'SELECT, INSERT, UPDATE, DELETE';
const SEQUENCE_PRIVILEGES = 'USAGE, SELECT, UPDATE';

/** The user and password of a connection string; the message never repeats the URL (it holds a password). */
export function appRoleOf(url: string): AppRole {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error('DATABASE_URL is not a valid connection string (postgresql://user:password@host:5432/database).');
  }
  const name = decodeURIComponent(parsed.username);
  const password = decodeURIComponent(parsed.password);
  if (!name || !password) throw new Error('DATABASE_URL must name the apps\u2019 user and its password.');
  if (!/^[\x20-\x7e]+$/.test(password)) throw new Error('The password in DATABASE_URL must be printable ASCII.');
  return { name, password };
}

async function passwordWorks(appUrl: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: appUrl, connectionTimeoutMillis: 10_000 });
  client.on('error', () => {});
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Makes the apps' role (`appUrl`'s user) exist with `appUrl`'s password and only the data
 * privileges on every table and sequence of the schemas this runner owns (public and those its
 * migrations created), now and for tables later migrations create. Runs as the owner that applied
 * the migrations (`client`); creating the role or changing its password needs CREATEROLE (the
 * official postgres image's POSTGRES_USER is a superuser). Attributes are changed only where they
 * are wrong: PostgreSQL 16+ lets only a superuser name SUPERUSER/REPLICATION/BYPASSRLS at all.
 * The password is sent as a SCRAM verifier: the plaintext never reaches the server or its logs.
 */
export async function ensureAppRole(client: pg.Client, appUrl: string, log: (line: string) => void): Promise<void> {
  const role = appRoleOf(appUrl);
  const { rows: owners } = await client.query<{ owner: string }>('SELECT current_user AS owner');
  if (role.name === owners[0]!.owner) {
    log(`DATABASE_URL uses the migrations' own role "${role.name}": the apps keep every privilege of the owner.`);
    return;
  }
  const identifier = client.escapeIdentifier(role.name);
  const verifier = () => client.escapeLiteral(scramSha256Verifier(role.password));
  const { rows } = await client.query<{
    rolsuper: boolean;
    rolcreatedb: boolean;
    rolcreaterole: boolean;
    rolreplication: boolean;
    rolbypassrls: boolean;
    rolcanlogin: boolean;
  }>(
    'SELECT rolsuper, rolcreatedb, rolcreaterole, rolreplication, rolbypassrls, rolcanlogin FROM pg_roles WHERE rolname = $1',
    [role.name],
  );
  const existing = rows[0];
  if (!existing) {
    // The defaults are NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS.
    await client.query(`CREATE ROLE ${identifier} LOGIN PASSWORD ${verifier()}`);
    log(`created the apps' database role "${role.name}"`);
  } else {
    const fixes = [
      existing.rolsuper && 'NOSUPERUSER',
      existing.rolcreatedb && 'NOCREATEDB',
      existing.rolcreaterole && 'NOCREATEROLE',
      existing.rolreplication && 'NOREPLICATION',
      existing.rolbypassrls && 'NOBYPASSRLS',
      !existing.rolcanlogin && 'LOGIN',
    ].filter(Boolean);
    if (fixes.length > 0) await client.query(`ALTER ROLE ${identifier} ${fixes.join(' ')}`);
    if (!(await passwordWorks(appUrl))) {
      await client.query(`ALTER ROLE ${identifier} PASSWORD ${verifier()}`);
      log(`set the password of the apps' database role "${role.name}" from DATABASE_URL`);
    }
  }
  await grantDataPrivileges(client, identifier);
  await checkRestricted(client, role.name);
}

async function grantDataPrivileges(client: pg.Client, identifier: string): Promise<void> {
  const { rows: schemas } = await client.query<{ name: string }>(
    `SELECT nspname AS name FROM pg_namespace
     WHERE nspname = 'public' OR (nspowner = current_user::regrole AND nspname NOT LIKE 'pg\\_%' AND nspname <> 'information_schema')
     ORDER BY nspname`,
  );
  await client.query(
    `GRANT CONNECT ON DATABASE ${client.escapeIdentifier(await currentDatabase(client))} TO ${identifier}`,
  );
  // Before PostgreSQL 15 every role may create tables in public; the owner takes that back (a no-op since).
  await client.query('REVOKE CREATE ON SCHEMA public FROM PUBLIC');
  for (const { name } of schemas) {
    const schema = client.escapeIdentifier(name);
    await client.query(`GRANT USAGE ON SCHEMA ${schema} TO ${identifier}`);
    await client.query(`GRANT ${TABLE_PRIVILEGES} ON ALL TABLES IN SCHEMA ${schema} TO ${identifier}`);
    await client.query(`GRANT ${SEQUENCE_PRIVILEGES} ON ALL SEQUENCES IN SCHEMA ${schema} TO ${identifier}`);
    await client.query(
      `ALTER DEFAULT PRIVILEGES IN SCHEMA ${schema} GRANT ${TABLE_PRIVILEGES} ON TABLES TO ${identifier}`,
    );
    await client.query(
      `ALTER DEFAULT PRIVILEGES IN SCHEMA ${schema} GRANT ${SEQUENCE_PRIVILEGES} ON SEQUENCES TO ${identifier}`,
    );
    if (await hasMaintain(client)) {
      // VACUUM by a role that neither owns the table nor holds MAINTAIN is skipped with a mere
      // warning; the apps vacuum what erasure frees (PostgreSQL 17+; older servers: the owner's job).
      await client.query(`GRANT MAINTAIN ON ALL TABLES IN SCHEMA ${schema} TO ${identifier}`);
      await client.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA ${schema} GRANT MAINTAIN ON TABLES TO ${identifier}`);
    }
  }
  // The migrations' bookkeeping is the owner's: the apps only read which ones were applied.
  await client.query(`REVOKE INSERT, UPDATE, DELETE ON "_prisma_migrations" FROM ${identifier}`);
}

async function hasMaintain(client: pg.Client): Promise<boolean> {
  const { rows } = await client.query<{ version: number }>(
    "SELECT current_setting('server_version_num')::int AS version",
  );
  return rows[0]!.version >= 170000;
}

async function currentDatabase(client: pg.Client): Promise<string> {
  return (await client.query<{ name: string }>('SELECT current_database() AS name')).rows[0]!.name;
}

/** The role must not be able to change the structure: no CREATE anywhere, no membership in the owner. */
async function checkRestricted(client: pg.Client, name: string): Promise<void> {
  const { rows } = await client.query<{ problem: string }>(
    `SELECT 'may create objects in the schema ' || nspname AS problem FROM pg_namespace
       WHERE nspname NOT LIKE 'pg\\_%' AND nspname <> 'information_schema' AND has_schema_privilege($1, oid, 'CREATE')
     UNION ALL
     SELECT 'may create schemas in this database' WHERE has_database_privilege($1, current_database(), 'CREATE')
     UNION ALL
     SELECT 'is a member of the owner ' || current_user WHERE pg_has_role($1, current_user, 'USAGE')`,
    [name],
  );
  if (rows.length > 0)
    throw new Error(
      `The apps' database role "${name}" ${rows.map((row) => row.problem).join('; ')}: revoke that (as a superuser), then run the migrations again.`,
    );
}
