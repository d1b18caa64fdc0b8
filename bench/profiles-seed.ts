import type { PrismaClient } from '@platform/db';
import { normaliseLocation } from '../apps/property-service/src/leads/prospects/index.js';

// Profiles spread over types, places, budgets and rent/buy, as an agency's database would be.
const PLACES = ['Berlin', 'Hamburg', 'München', 'Köln', 'Leipzig', 'Potsdam', 'Dresden', 'Bremen'];
const sqlArray = (values: string[]) => `ARRAY[${values.map((v) => `'${v}'`).join(',')}]`;

/**
 * `count` prospects with search profiles (one in 7 paused), ids `int_1`…, each with the valid
 * marketing consent record matching needs; `accountOf` is the SQL of each one's account (`g` is its
 * number). The mirror column `marketing_consent_valid` is left to the caller.
 */
export async function seedProfiles(db: PrismaClient, count: number, accountOf = "'acct_bench'"): Promise<void> {
  await db.$executeRawUnsafe(`
  INSERT INTO prospects (id, account_id, last_name, email, consent_purpose, consent_given_at, has_profile, profile_active,
    profile_marketing, profile_types, profile_locations, profile_locations_norm, profile_rooms_min, profile_purchase_price_max, profile_cold_rent_max, profile_living_area_min,
    last_activity_at, retention_until, created_at, updated_at)
  SELECT 'int_' || g, ${accountOf}, 'N' || g, 'p' || g || '@example.de', 'Kontakt', now(), true, g % 7 <> 0,
    (CASE WHEN g % 5 = 0 THEN 'rent' ELSE 'sale' END)::"Marketing",
    (CASE g % 5 WHEN 0 THEN '{apartment}' WHEN 1 THEN '{house}' WHEN 2 THEN '{apartment,house}' WHEN 3 THEN '{land}' ELSE '{}' END)::"PropertyType"[],
    ARRAY[(${sqlArray(PLACES)})[1 + g % 8]], ARRAY[(${sqlArray(PLACES.map(normaliseLocation))})[1 + g % 8]],
    1 + g % 5, 150000 + (g * 7919) % 750000, 500 + (g * 31) % 2500, 30 + g % 120,
    now(), current_date + 180, now(), now()
  FROM generate_series(1, ${count}) AS g`);
  await db.$executeRawUnsafe(`
  INSERT INTO prospect_consents (id, account_id, prospect_id, purpose, wording, source, requires_confirmation, given_at, created_at)
  SELECT 'ein_' || substr(id, 5), account_id, id, 'marketing', consent_purpose, 'other', false, consent_given_at, created_at
  FROM prospects`);
}
