// `pnpm start` as docker-compose runs the apps: connected as a restricted role (data privileges
// only), which the migration runner creates and grants as the owner (MIGRATION_DATABASE_URL in
// compose; here the run's superuser, as the postgres image's POSTGRES_USER is one). The suite's own
// setup (tenants, keys, checks past the API) keeps the database's owner.
import { randomBytes } from 'node:crypto';
import { DEFAULT_MIGRATIONS_DIR, runMigrations } from '@platform/db';
import { adminUrl, queryAt, startServices, withDatabase, type TestDatabase } from '@platform/testkit';
import { deploymentOf, type Deployment } from '../harness.js';

export async function asAppRole(db: TestDatabase, env: Record<string, string>): Promise<Deployment> {
  const name = decodeURIComponent(new URL(db.url).pathname.slice(1));
  const ownerUrl = withDatabase(adminUrl(), name);
  const role = `platform_app_${randomBytes(4).toString('hex')}`;
  const appUrl = new URL(db.url);
  appUrl.username = role;
  appUrl.password = randomBytes(16).toString('hex');
  await runMigrations(ownerUrl, DEFAULT_MIGRATIONS_DIR, { appDatabaseUrl: appUrl.toString() });
  const dropRole = async () => {
    await queryAt(ownerUrl, `DROP OWNED BY ${role}`);
    await queryAt(adminUrl(), `DROP ROLE IF EXISTS ${role}`);
  };
  const services = await startServices({ databaseUrl: appUrl.toString(), env }).catch(async (error: unknown) => {
    await dropRole();
    throw error;
  });
  // Every connection of the services and the worker is the role's: none is the owner's.
  await fetch(`http://127.0.0.1:${services.ports.property}/health/ready`);
  const sessions = await queryAt(
    ownerUrl,
    `SELECT DISTINCT usename FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND usename <> '${decodeURIComponent(new URL(db.url).username)}'`,
  );
  if (sessions.map((row) => row.usename).join() !== role) {
    await services.stop();
    await dropRole();
    throw new Error(`the services connect as ${JSON.stringify(sessions)}, not only as ${role}`);
  }
  return deploymentOf(services, dropRole);
}
