import { afterAll, beforeAll, expect, it } from 'vitest';
import { databaseBefore, type DatabaseBefore, type TestDatabase } from '@platform/testkit';

const RENAME = '20261127210000_leads_english_columns';
let migration: DatabaseBefore;
let db: TestDatabase;

beforeAll(async () => {
  migration = await databaseBefore(RENAME);
  db = migration.db;
});
afterAll(() => migration.drop());

it('keeps the prospects and inquiries of a database made before the English column names', async () => {
  await migration.migrateToBefore();
  await db.query("INSERT INTO accounts (id, name) VALUES ('acct_1', 'Org')");
  await db.query(
    `INSERT INTO properties (id, account_id, type, title, address_postal_code, address_city)
     VALUES ('prop_1', 'acct_1', 'apartment', 'T', '10115', 'Berlin')`,
  );
  await db.query(
    `INSERT INTO prospects (id, account_id, vorname, nachname, email, telefon, einwilligung_zweck, einwilligung_erteilt_am,
       has_profile, profil_aktiv, profil_vermarktung, profil_typ, profil_orte, profil_orte_norm, profil_zimmer_min,
       profil_kaufpreis_max, profil_kaltmiete_max, profil_wohnflaeche_min, last_activity_at, retention_until, created_at, updated_at)
     VALUES ('int_1', 'acct_1', 'Erika', 'Mustermann', 'e@example.de', '+49 30 1', 'Kontakt', '2026-01-01T10:00:00Z',
       true, true, 'miete', '{apartment}', '{Berlin}', '{berlin}', 2.5, NULL, 1500, 60, now(), '2027-01-01', now(), now()),
     ('int_2', 'acct_1', NULL, 'Käufer', 'k@example.de', NULL, 'Kontakt', '2026-01-01T10:00:00Z',
       true, false, 'kauf', '{}', '{}', '{}', NULL, 400000, NULL, NULL, now(), '2027-01-01', now(), now())`,
  );
  await db.query(
    `INSERT INTO inquiries (id, account_id, property_id, prospect_id, nachricht, score, weights_version, score_details, scored_at)
     VALUES ('anf_1', 'acct_1', 'prop_1', 'int_1', 'Noch frei?', 50, 'v', '{}', now())`,
  );
  expect((await migration.migrateRest())[0]).toBe(RENAME);
  expect(
    await db.query(
      `SELECT id, first_name, last_name, phone, consent_purpose, profile_active, profile_marketing::text AS marketing,
         profile_types::text[] AS types, profile_locations, profile_locations_norm, profile_rooms_min,
         profile_purchase_price_max, profile_cold_rent_max, profile_living_area_min
       FROM prospects ORDER BY id`,
    ),
  ).toEqual([
    {
      id: 'int_1',
      first_name: 'Erika',
      last_name: 'Mustermann',
      phone: '+49 30 1',
      consent_purpose: 'Kontakt',
      profile_active: true,
      marketing: 'rent',
      types: ['apartment'],
      profile_locations: ['Berlin'],
      profile_locations_norm: ['berlin'],
      profile_rooms_min: 2.5,
      profile_purchase_price_max: null,
      profile_cold_rent_max: 1500,
      profile_living_area_min: 60,
    },
    {
      id: 'int_2',
      first_name: null,
      last_name: 'Käufer',
      phone: null,
      consent_purpose: 'Kontakt',
      profile_active: false,
      marketing: 'sale',
      types: [],
      profile_locations: [],
      profile_locations_norm: [],
      profile_rooms_min: null,
      profile_purchase_price_max: 400000,
      profile_cold_rent_max: null,
      profile_living_area_min: null,
    },
  ]);
  expect(await db.query('SELECT id, message FROM inquiries')).toEqual([{ id: 'anf_1', message: 'Noch frei?' }]);
});
