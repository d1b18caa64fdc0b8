// Treffer: a property activated in an account with 100,000 search profiles, until all its
// `prospect.matched` events are in the outbox (goal: within seconds). pnpm bench:outreach [--profiles 100000] [--threshold 70]
import { parseArgs } from 'node:util';
import { CursorCodec } from '@platform/http';
import type { JobQueue } from '@platform/service';
import { eventEmitter } from '@platform/webhooks';
import { startBenchDatabase } from './support.js';
import { PROPERTY_EVENTS } from '../apps/property-service/src/events.js';
import { normaliseLocation } from '../apps/property-service/src/leads/prospects/index.js';
import { OUTREACH_JOB, outreachTrigger } from '../apps/property-service/src/leads/outreach/index.js';
import { createPropertyService } from '../apps/property-service/src/properties/index.js';

const { values } = parseArgs({
  options: {
    profiles: { type: 'string', default: '100000' },
    threshold: { type: 'string', default: '70' },
    'per-day': { type: 'string', default: '3' },
  },
});
const PROFILES = Number(values.profiles);
const bench = await startBenchDatabase('outreach');
const { db } = bench;
// Profiles spread over types, places, budgets and rent/buy (as bench/matching.ts), all of one account.
const PLACES = ['Berlin', 'Hamburg', 'München', 'Köln', 'Leipzig', 'Potsdam', 'Dresden', 'Bremen'];
const sqlArray = (list: string[]) => `ARRAY[${list.map((v) => `'${v}'`).join(',')}]`;
await db.$executeRawUnsafe(`
  INSERT INTO prospects (id, account_id, last_name, email, consent_purpose, consent_given_at, has_profile, profile_active,
    profile_marketing, profile_types, profile_locations, profile_locations_norm, profile_rooms_min, profile_purchase_price_max, profile_cold_rent_max, profile_living_area_min,
    last_activity_at, retention_until, created_at, updated_at)
  SELECT 'int_' || g, 'acct_bench', 'N' || g, 'p' || g || '@example.de', 'Kontakt', now(), true, g % 7 <> 0,
    (CASE WHEN g % 5 = 0 THEN 'rent' ELSE 'sale' END)::"Marketing",
    (CASE g % 5 WHEN 0 THEN '{apartment}' WHEN 1 THEN '{house}' WHEN 2 THEN '{apartment,house}' WHEN 3 THEN '{land}' ELSE '{}' END)::"PropertyType"[],
    ARRAY[(${sqlArray(PLACES)})[1 + g % 8]], ARRAY[(${sqlArray(PLACES.map(normaliseLocation))})[1 + g % 8]],
    1 + g % 5, 150000 + (g * 7919) % 750000, 500 + (g * 31) % 2500, 30 + g % 120,
    now(), current_date + 180, now(), now()
  FROM generate_series(1, ${PROFILES}) AS g`);
// Each profile with a valid marketing consent (the record and its mirror), one in 20 restricted.
await db.$executeRawUnsafe(`
  INSERT INTO prospect_consents (id, account_id, prospect_id, purpose, wording, source, requires_confirmation, given_at, created_at)
  SELECT 'ein_' || substr(id, 5), account_id, id, 'marketing', consent_purpose, 'other', false, consent_given_at, created_at
  FROM prospects`);
await db.$executeRawUnsafe(
  'UPDATE prospects SET marketing_consent_valid = true, restricted_at = CASE WHEN substr(id, 5)::int % 20 = 0 THEN now() END',
);
await db.$executeRawUnsafe('ANALYZE prospects');
await db.$executeRawUnsafe(
  `INSERT INTO outreach_settings (account_id, threshold, daily_limit, updated_at) VALUES ('acct_bench', $1, $2, now())`,
  Number(values.threshold),
  Number(values['per-day']),
);
await db.property.create({
  data: {
    id: 'prop_bench',
    account_id: 'acct_bench',
    status: 'draft',
    type: 'apartment',
    title: 'Neue Wohnung',
    address_postal_code: '10115',
    address_city: 'Berlin',
    rooms: 3,
    living_area_sqm: 78,
    purchase_price_eur: 420000,
  },
});

// The worker's part without Redis: the job runs as soon as it is enqueued (after the activation's commit).
const worker: JobQueue = {
  async enqueue(_job, payload) {
    const context = { db, now: new Date(), jobs: worker } as unknown as Parameters<typeof OUTREACH_JOB.run>[0];
    console.error(JSON.stringify(await OUTREACH_JOB.run(context, payload)));
  },
};
const properties = createPropertyService({
  db,
  cursors: new CursorCodec('bench'),
  now: () => new Date(),
  emit: eventEmitter('property', PROPERTY_EVENTS),
  onOfferImproved: outreachTrigger(worker, (context, message) => console.error(message, context)),
});
const start = performance.now();
await properties.transition('acct_bench', 'prop_bench', 'activate');
const seconds = (performance.now() - start) / 1000;
const events = await db.outboxEvent.count({ where: { type: 'prospect.matched' } });
const reachable = await db.prospect.count({
  where: { account_id: 'acct_bench', profile_active: true, restricted_at: null },
});
console.log(
  JSON.stringify(
    {
      profiles: PROFILES,
      active_reachable_profiles: reachable,
      threshold: Number(values.threshold),
      treffer_events: events,
      seconds_until_all_in_outbox: Number(seconds.toFixed(2)),
    },
    null,
    2,
  ),
);
await bench.close();
process.exit(0);
