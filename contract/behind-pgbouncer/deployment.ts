// `pnpm start` connected through PgBouncer in transaction mode (Debian's 1.18: no prepared
// statements across server connections), migrations straight to PostgreSQL.
import { startPgBouncer, startServices, type TestDatabase } from '@platform/testkit';
import { deploymentOf, type Deployment } from '../harness.js';

export async function behindPgBouncer(db: TestDatabase, env: Record<string, string>): Promise<Deployment> {
  // Fewer server connections than the services' pool holds: clients take turns on them.
  const bouncer = await startPgBouncer(db.url, { timezone: 'UTC', poolSize: 4 });
  const services = await startServices({
    databaseUrl: bouncer.url,
    env: { ...env, DATABASE_POOLING: 'transaction', DIRECT_DATABASE_URL: db.url },
  }).catch(async (error: unknown) => {
    await bouncer.stop();
    throw error;
  });
  return deploymentOf(services, () => bouncer.stop());
}
