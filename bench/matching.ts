// Matching a new property against 100,000 search profiles (goal: p95 under 100 ms). pnpm bench:matching [--profiles 100000]
import { parseArgs } from 'node:util';
import { CursorCodec } from '@platform/http';
import { seedProfiles } from './profiles-seed.js';
import { percentiles, startBenchDatabase } from './support.js';
import { createMatchingService } from '../apps/property-service/src/leads/matching/index.js';

const { values } = parseArgs({
  options: { profiles: { type: 'string', default: '100000' }, runs: { type: 'string', default: '60' } },
});
const PROFILES = Number(values.profiles);
const bench = await startBenchDatabase('match', ['acct_bench', 'acct_other']);
const { db } = bench;
await seedProfiles(db, PROFILES, "CASE WHEN g % 10 = 0 THEN 'acct_other' ELSE 'acct_bench' END");
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
