// Matching one search profile against 20,000 properties of its account (no goal set; recorded in RESULTS.md).
// pnpm bench:matching-prospect [--properties 20000] [--runs 60]
import { parseArgs } from 'node:util';
import { CursorCodec } from '@platform/http';
import { percentiles, startBenchDatabase } from './support.js';
import { normaliseLocation } from '../apps/property-service/src/leads/prospects/index.js';
import { createMatchingService } from '../apps/property-service/src/leads/matching/index.js';

const { values } = parseArgs({
  options: { properties: { type: 'string', default: '20000' }, runs: { type: 'string', default: '60' } },
});
const PROPERTIES = Number(values.properties);
const bench = await startBenchDatabase('match-prospect', ['acct_bench', 'acct_other']);
const { db } = bench;
// Properties spread over types, statuses, places, prices (bought and rented) as an agency's stock would be,
// plus a tenth as many in another account.
const PLACES = [
  ['10115', 'Berlin'],
  ['10245', 'Berlin'],
  ['20095', 'Hamburg'],
  ['80331', 'München'],
  ['50667', 'Köln'],
  ['04109', 'Leipzig'],
  ['14467', 'Potsdam'],
  ['01067', 'Dresden'],
  ['28195', 'Bremen'],
];
const sqlArray = (values: string[]) => `ARRAY[${values.map((v) => `'${v}'`).join(',')}]`;
const insert = (account: string, count: number, prefix: string) =>
  db.$executeRawUnsafe(`
    INSERT INTO properties (id, account_id, status, type, title, address_postal_code, address_city, rooms, living_area_sqm,
      purchase_price_eur, cold_rent_eur, created_at, updated_at)
    SELECT '${prefix}' || g, '${account}',
      (CASE WHEN g % 10 < 6 THEN 'active' WHEN g % 10 = 6 THEN 'reserved' WHEN g % 10 = 7 THEN 'draft' WHEN g % 10 = 8 THEN 'sold' ELSE 'archived' END)::"PropertyStatus",
      (CASE g % 5 WHEN 0 THEN 'apartment' WHEN 1 THEN 'house' WHEN 2 THEN 'apartment' WHEN 3 THEN 'land' ELSE 'commercial' END)::"PropertyType",
      'Objekt ' || g, (${sqlArray(PLACES.map((p) => p[0]))})[1 + g % 9], (${sqlArray(PLACES.map((p) => p[1]))})[1 + g % 9],
      CASE WHEN g % 13 = 0 THEN NULL ELSE 1 + (g % 9) * 0.5 END, CASE WHEN g % 17 = 0 THEN NULL ELSE 30 + (g * 7) % 150 END,
      CASE WHEN g % 3 = 0 THEN NULL ELSE 150000 + (g * 7919) % 750000 END, CASE WHEN g % 3 = 1 THEN NULL ELSE 500 + (g * 31) % 2500 END,
      now(), now()
    FROM generate_series(1, ${count}) AS g`);
await insert('acct_bench', PROPERTIES, 'prop_');
await insert('acct_other', Math.ceil(PROPERTIES / 10), 'prop_other_');
await db.$executeRawUnsafe('ANALYZE properties');
const orte = ['Berlin', '14'];
await db.prospect.create({
  data: {
    id: 'int_bench',
    account_id: 'acct_bench',
    last_name: 'Bench',
    email: 'bench@example.de',
    has_profile: true,
    profile_active: true,
    profile_marketing: 'sale',
    profile_types: ['apartment', 'house'],
    profile_locations: orte,
    profile_locations_norm: orte.map(normaliseLocation),
    profile_rooms_min: 3,
    profile_purchase_price_max: 450000,
    profile_living_area_min: 70,
    last_activity_at: new Date(),
    retention_until: new Date('2099-01-01'),
  },
});
const matching = createMatchingService({ db, cursors: new CursorCodec('bench') });
const times: number[] = [];
let found = 0;
for (let i = 0; i < Number(values.runs); i++) {
  const start = performance.now();
  const page = await matching.propertiesForProspect('acct_bench', 'int_bench', { limit: 25 });
  times.push(performance.now() - start);
  found = page.daten.length;
}
const marketed = await db.property.count({
  where: { account_id: 'acct_bench', status: { in: ['active', 'reserved'] } },
});
// the profile's knockouts: marketed, apartment or house, a purchase price at most 450,000 × 1.2
const candidates = await db.property.count({
  where: {
    account_id: 'acct_bench',
    status: { in: ['active', 'reserved'] },
    type: { in: ['apartment', 'house'] },
    purchase_price_eur: { not: null, lte: 540000 },
  },
});
console.log(
  JSON.stringify(
    { properties: PROPERTIES, marketed_of_account: marketed, candidates, first_page: found, ...percentiles(times) },
    null,
    2,
  ),
);
await bench.close();
process.exit(0);
