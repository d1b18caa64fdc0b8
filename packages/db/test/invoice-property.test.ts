import { afterAll, beforeAll, expect, it } from 'vitest';
import { databaseBefore, type DatabaseBefore, type TestDatabase } from '@platform/testkit';

const MIGRATION = '20261127220000_invoice_property';
let migration: DatabaseBefore;
let db: TestDatabase;

beforeAll(async () => {
  migration = await databaseBefore(MIGRATION);
  db = migration.db;
});
afterAll(() => migration.drop());

it('gives every invoice issued before it the property of its settlement', async () => {
  await migration.migrateToBefore();
  await db.query("INSERT INTO accounts (id, name) VALUES ('acct_1', 'Agency')");
  await db.query(
    `INSERT INTO properties (id, account_id, type, title, address_postal_code, address_city)
     VALUES ('prop_1', 'acct_1', 'apartment', 'A', '10115', 'Berlin'), ('prop_2', 'acct_1', 'house', 'B', '10115', 'Berlin')`,
  );
  await db.query(
    `INSERT INTO commission_settlements (id, account_id, property_id, kind, rules_version, regime, transaction_date, net_cents, vat_cents, gross_cents)
     VALUES ('set_1', 'acct_1', 'prop_1', 'sale', 'r', 'g', '2026-01-01', 1, 0, 1), ('set_2', 'acct_1', 'prop_2', 'sale', 'r', 'g', '2026-01-01', 1, 0, 1)`,
  );
  const invoice = (id: string, settlement: string, number: string) =>
    `('${id}', 'acct_1', '${settlement}', 'seller', '${number}', '2026-01-02', '2026-01-01', 14, '{}', '{}', '{}', 1, 1900, 0, 1)`;
  await db.query(
    `INSERT INTO invoices (id, account_id, settlement_id, party, number, issue_date, service_date, payment_terms_days,
       issuer, recipient, line, net_cents, vat_rate_bp, vat_cents, gross_cents)
     VALUES ${invoice('inv_1', 'set_1', '2026-000001')}, ${invoice('inv_2', 'set_2', '2026-000002')}`,
  );
  expect((await migration.migrateRest())[0]).toBe(MIGRATION);
  expect(await db.query('SELECT id, property_id FROM invoices ORDER BY id')).toEqual([
    { id: 'inv_1', property_id: 'prop_1' },
    { id: 'inv_2', property_id: 'prop_2' },
  ]);
  await expect(
    db.query(
      `INSERT INTO invoices (id, account_id, settlement_id, party, number, issue_date, service_date, payment_terms_days,
         issuer, recipient, line, net_cents, vat_rate_bp, vat_cents, gross_cents)
       VALUES ${invoice('inv_3', 'set_1', '2026-000003').replace("'seller'", "'buyer'")}`,
    ),
  ).rejects.toThrow(/property_id/);
});
