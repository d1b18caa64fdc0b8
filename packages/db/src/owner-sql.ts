import pg from 'pg';

const ROLE_OR_DATABASE = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Objects of the public schema that another role owns pass to `owner` (a data dir made by an
 * older version has every table, sequence and type owned by the superuser). Sequences that
 * belong to a column follow their table; indexes follow their table.
 */
const ADOPT = (owner: string) => `
DO $adopt$
DECLARE
  target regrole := '${owner}';
  item record;
BEGIN
  FOR item IN
    SELECT c.oid::regclass AS name, c.relkind FROM pg_class c
    WHERE c.relnamespace = 'public'::regnamespace AND c.relowner <> target AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
      AND NOT (c.relkind = 'S' AND EXISTS (
        SELECT FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.refclassid = 'pg_class'::regclass AND d.deptype IN ('a', 'i')))
  LOOP
    EXECUTE format('ALTER %s %s OWNER TO ${owner}',
      CASE item.relkind WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW' WHEN 'S' THEN 'SEQUENCE' WHEN 'f' THEN 'FOREIGN TABLE' ELSE 'TABLE' END, item.name);
  END LOOP;
  FOR item IN
    SELECT t.oid::regtype AS name, t.typtype FROM pg_type t
    WHERE t.typnamespace = 'public'::regnamespace AND t.typowner <> target AND t.typtype IN ('e', 'd', 'r', 'c')
      AND (t.typtype <> 'c' OR (SELECT relkind FROM pg_class WHERE oid = t.typrelid) = 'c')
  LOOP
    EXECUTE format('ALTER %s %s OWNER TO ${owner}', CASE item.typtype WHEN 'd' THEN 'DOMAIN' ELSE 'TYPE' END, item.name);
  END LOOP;
  FOR item IN
    SELECT p.oid::regprocedure AS name, p.prokind FROM pg_proc p WHERE p.pronamespace = 'public'::regnamespace AND p.proowner <> target
  LOOP
    EXECUTE format('ALTER %s %s OWNER TO ${owner}', CASE item.prokind WHEN 'a' THEN 'AGGREGATE' ELSE 'ROUTINE' END, item.name);
  END LOOP;
  FOR item IN
    SELECT quote_ident(collname) AS name FROM pg_collation WHERE collnamespace = 'public'::regnamespace AND collowner <> target
  LOOP
    EXECUTE format('ALTER COLLATION public.%s OWNER TO ${owner}', item.name);
  END LOOP;
  IF (SELECT nspowner FROM pg_namespace WHERE nspname = 'public') NOT IN (target, 'pg_database_owner'::regrole) THEN
    ALTER SCHEMA public OWNER TO ${owner};
  END IF;
END
$adopt$`;

/**
 * Makes `owner` (a role that is not a superuser) the owner of `database` and of everything in its
 * public schema, creating the database if it is missing; run as a superuser (`adminUrl`, any
 * database of the server). Idempotent and cheap when nothing is to be done.
 */
export async function ensureOwnedDatabase(adminUrl: string, database: string, owner: string): Promise<void> {
  if (!ROLE_OR_DATABASE.test(database) || !ROLE_OR_DATABASE.test(owner))
    throw new Error(`ensureOwnedDatabase: invalid name ("${database}", "${owner}")`);
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ owner: string }>(
      'SELECT pg_get_userbyid(datdba) AS owner FROM pg_database WHERE datname = $1',
      [database],
    );
    if (rows.length === 0) {
      try {
        await admin.query(`CREATE DATABASE ${database} OWNER ${owner}`);
      } catch (error) {
        if ((error as { code?: string }).code !== '42P04') throw error; // created meanwhile by another process
        await admin.query(`ALTER DATABASE ${database} OWNER TO ${owner}`);
      }
    } else if (rows[0].owner !== owner) {
      await admin.query(`ALTER DATABASE ${database} OWNER TO ${owner}`);
    }
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  const inDatabase = new pg.Client({ connectionString: url.toString() });
  await inDatabase.connect();
  try {
    await inDatabase.query(ADOPT(owner));
  } finally {
    await inDatabase.end();
  }
}
