import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the lint configuration, without types
import { readOwners } from '../../../tools/eslint/table-owners.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const eslint = new ESLint({ cwd: ROOT });

/** The `tables/owner-only` messages for the code as if it were the file at `path`. */
async function ownerFindings(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, path) });
  return result.messages.filter((m) => m.ruleId === 'tables/owner-only').map((m) => m.message);
}

const HEADER = "import type { Db, Prisma } from '@platform/db';\n";

describe('tables/owner-only (tools/eslint/table-owners.js, wired in eslint.config.js)', () => {
  it('reads an owner for every model of the schema', () => {
    const models: { client: string; table: string; owner: string }[] = readOwners(join(ROOT, 'prisma/schema'));
    expect(models.length).toBeGreaterThan(30);
    expect(models.find((m) => m.client === 'appointment')).toMatchObject({
      table: 'appointments',
      owner: 'apps/property-service/src/appointments',
    });
    expect(models.find((m) => m.client === 'account')?.owner).toBe('packages/accounts');
  });

  it("reports a client call, raw SQL and a relation read of another folder's table", async () => {
    const code =
      HEADER +
      'export const a = (db: Db) => db.appointment.findMany();\n' +
      'export const b = (db: Db) => db.$queryRaw`SELECT id FROM viewing_slots v JOIN accounts a ON a.id = v.account_id`;\n' +
      'export const c = (db: Db) => db.listing.findMany({ include: { publications: { include: { channel: true } } } });\n' +
      'export const WITH = { media: true, appointments: { select: { id: true } } } as const satisfies Prisma.ListingInclude;\n';
    const findings = await ownerFindings('apps/property-service/src/listings/example.ts', code);
    expect(findings).toEqual([
      expect.stringContaining('`appointment` belongs to apps/property-service/src/appointments'),
      expect.stringContaining('`viewing_slots` belongs to apps/property-service/src/viewing-slots'),
      expect.stringContaining('`accounts` belongs to packages/accounts'),
      expect.stringContaining('`channel` belongs to apps/property-service/src/channels'),
      expect.stringContaining('`appointments` belongs to apps/property-service/src/appointments'),
    ]);
  });

  it('reads lower-case SQL statements, comma joins, schema prefixes, ctx.tx and relation filters', async () => {
    const code =
      HEADER +
      "export const a = (db: Db) => db.$queryRawUnsafe('select 1 from listings l, public.accounts a where a.id = l.account_id');\n" +
      'export const b = (ctx: { tx: Db }) => ctx.tx.channel.findMany();\n' +
      "export const c = (db: Db) => db.appointment.findMany({ where: { property: { listings: { some: { status: 'completed' } } } } });\n" +
      'export const d = (db: Db) => db.$queryRaw`WITH accounts AS (SELECT 1) SELECT * FROM accounts`;\n';
    expect(await ownerFindings('apps/property-service/src/appointments/example.ts', code)).toEqual([
      expect.stringContaining('`listings` belongs to apps/property-service/src/listings'),
      expect.stringContaining('`accounts` belongs to packages/accounts'),
      expect.stringContaining('`channel` belongs to apps/property-service/src/channels'),
      // (the relation filter inside it is not followed: the outer one already fails the lint)
      expect.stringContaining('`property` belongs to apps/property-service/src/properties'),
    ]);
  });

  it('lets the owner query its own tables, and ignores prose that names a table in lower case', async () => {
    const code =
      HEADER +
      'export const a = (db: Db) => db.appointment.findMany();\n' +
      'export const b = (db: Db) => db.$queryRaw`UPDATE appointments SET host = NULL`;\n' +
      "export const text = 'Removes the prospect from appointments and from properties.';\n";
    expect(await ownerFindings('apps/property-service/src/appointments/repository.ts', code)).toEqual([]);
  });
});
