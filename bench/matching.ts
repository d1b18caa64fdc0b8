// Matching a new property against 100,000 search profiles (goal: p95 under 100 ms). pnpm bench:matching [--profiles 100000]
import { parseArgs } from 'node:util';
import { CursorCodec } from '@platform/http';
import { percentiles, startBenchDatabase } from './support.js';
import { normaliseLocation } from '../apps/property-service/src/leads/prospects/index.js';
import { createMatchingService } from '../apps/property-service/src/leads/matching/index.js';

const { values } = parseArgs({
  options: { profiles: { type: 'string', default: '100000' }, runs: { type: 'string', default: '60' } },
});
const PROFILES = Number(values.profiles);
const bench = await startBenchDatabase('match', ['acct_bench', 'acct_other']);
const { db } = bench;
// Profiles spread over types, places, budgets and rent/buy, as an agency's database would be.
const PLACES = ['Berlin', 'Hamburg', 'München', 'Köln', 'Leipzig', 'Potsdam', 'Dresden', 'Bremen'];
const sqlArray = (values: string[]) => `ARRAY[${values.map((v) => `'${v}'`).join(',')}]`;
await db.$executeRawUnsafe(`
  INSERT INTO prospects (id, account_id, last_name, email, consent_purpose, consent_given_at, has_profile, profile_active,
    profile_marketing, profile_types, profile_locations, profile_locations_norm, profile_rooms_min, profile_purchase_price_max, profile_cold_rent_max, profile_living_area_min,
    last_activity_at, retention_until, created_at, updated_at)
  SELECT 'int_' || g, CASE WHEN g % 10 = 0 THEN 'acct_other' ELSE 'acct_bench' END, 'N' || g, 'p' || g || '@example.de', 'Kontakt', now(), true, g % 7 <> 0,
    (CASE WHEN g % 5 = 0 THEN 'rent' ELSE 'sale' END)::"Marketing",
    (CASE g % 5 WHEN 0 THEN '{apartment}' WHEN 1 THEN '{house}' WHEN 2 THEN '{apartment,house}' WHEN 3 THEN '{land}' ELSE '{}' END)::"PropertyType"[],
    ARRAY[(${sqlArray(PLACES)})[1 + g % 8]], ARRAY[(${sqlArray(PLACES.map(normaliseLocation))})[1 + g % 8]],
    1 + g % 5, 150000 + (g * 7919) % 750000, 500 + (g * 31) % 2500, 30 + g % 120,
    now(), current_date + 180, now(), now()
  FROM generate_series(1, ${PROFILES}) AS g`);
// Each profile with the valid marketing consent matching needs (the consent's record and its mirror).
await db.$executeRawUnsafe(`
  INSERT INTO prospect_consents (id, account_id, prospect_id, purpose, wording, source, requires_confirmation, given_at, created_at)
  SELECT 'ein_' || substr(id, 5), account_id, id, 'marketing', consent_purpose, 'other', false, consent_given_at, created_at
  FROM prospects`);
await db.$executeRawUnsafe('UPDATE prospects SET marketing_consent_valid = true');
await db.$executeRawUnsafe('ANALYZE prospects');
await db.$executeRawUnsafe('ANALYZE prospect_consents');
await db.property.create({
  data: {
    id: 'prop_bench',
    account_id: 'acct_bench',
    status: 'active',
    type: 'apartment',
    title: 'Neue Wohnung',
    address_postal_code: '10115',
    address_city: 'Berlin',
    rooms: 3,
    living_area_sqm: 78,
    purchase_price_eur: 420000,
  },
});
const matching = createMatchingService({ db, cursors: new CursorCodec('bench') });
const times: number[] = [];
let found = 0;
for (let i = 0; i < Number(values.runs); i++) {
  const start = performance.now();
  const page = await matching.prospectsForProperty('acct_bench', 'prop_bench', { limit: 25 });
  times.push(performance.now() - start);
  found = page.daten.length;
}
const candidates = await db.prospect.count({ where: { account_id: 'acct_bench', profile_active: true } });
console.log(
  JSON.stringify(
    { profiles: PROFILES, active_profiles_of_account: candidates, first_page: found, ...percentiles(times) },
    null,
    2,
  ),
);
await bench.close();
process.exit(0);
