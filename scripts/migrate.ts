// `pnpm db:migrate` / `node dist/migrate.js`: applies pending migrations to DATABASE_URL (or the
// embedded database). With MIGRATION_DATABASE_URL (the owner, e.g. the postgres image's superuser)
// the migrations run as that role, and DATABASE_URL's role — the apps' — is then made to exist
// with DATABASE_URL's password and only the data privileges (docs/deployment.md, "Database roles").
import { DEFAULT_MIGRATIONS_DIR, runMigrations } from '@platform/db';
import { configOrExit, openDatabase } from '@platform/runtime';

const log = (line: string) => console.log(line);
const config = configOrExit();
// Read here, not in the config module: only this one-shot knows the owner's credentials.
const ownerUrl = process.env.MIGRATION_DATABASE_URL || undefined;

try {
  if (!ownerUrl) {
    const database = await openDatabase(config, { log });
    await database.close();
  } else {
    if (!config.databaseUrl)
      throw new Error(
        'MIGRATION_DATABASE_URL needs DATABASE_URL: the apps\u2019 role, which the migrations grant their privileges to.',
      );
    const applied = await runMigrations(ownerUrl, DEFAULT_MIGRATIONS_DIR, {
      appDatabaseUrl: config.databaseUrl,
      log,
    }).catch((error: unknown) => {
      throw new Error(`As the owner of MIGRATION_DATABASE_URL: ${(error as Error).message}`, { cause: error });
    });
    if (applied.length > 0) log(`applied migrations: ${applied.join(', ')}`);
  }
  console.log('database is up to date');
} catch (error) {
  // One line, never a URL (they hold passwords): our own messages and PostgreSQL's say what is wrong.
  console.error((error as Error).message.split('\n')[0]);
  process.exitCode = 1;
}
