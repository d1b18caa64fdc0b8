import type { FastifyInstance } from 'fastify';
import { createTestDatabase, createTenant, LogCapture, TEST_PEPPER, type Tenant, type TestDatabase } from '@platform/testkit';
import { buildPropertyApp } from '../src/app.js';

export interface PropertyTestContext {
  db: TestDatabase;
  app: FastifyInstance;
  logs: LogCapture;
  tenant: Tenant;
  other: Tenant;
  clock: { now: Date };
  close(): Promise<void>;
}

/** A property app on its own database, with two tenants holding every scope. */
export async function startPropertyApp(options: { keyCacheTtlMs?: number } = {}): Promise<PropertyTestContext> {
  const db = await createTestDatabase();
  const logs = new LogCapture();
  const clock = { now: new Date() };
  const app = await buildPropertyApp({
    db: db.prisma,
    environment: 'sandbox',
    pepper: TEST_PEPPER,
    logLevel: 'info',
    logStream: logs,
    now: () => clock.now,
    keyCacheTtlMs: options.keyCacheTtlMs,
  });
  await app.ready();
  const tenant = await createTenant(db.prisma, { service: 'property' });
  const other = await createTenant(db.prisma, { service: 'property' });
  return {
    db,
    app,
    logs,
    tenant,
    other,
    clock,
    close: async () => {
      await app.close();
      await db.drop();
    },
  };
}

export const validProperty = () => ({
  type: 'apartment',
  title: 'Bright two-room flat near the park',
  address: { street: 'Parkstraße 5', postal_code: '10115', city: 'Berlin' },
  living_area_sqm: 64.5,
  rooms: 2,
  purchase_price_eur: 420000,
});
