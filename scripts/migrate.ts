// `pnpm db:migrate`: applies pending migrations to DATABASE_URL (or the embedded database).
import { configOrExit, openDatabase } from '@platform/runtime';

const database = await openDatabase(configOrExit(), { log: (line) => console.log(line) });
console.log('database is up to date');
await database.close();
