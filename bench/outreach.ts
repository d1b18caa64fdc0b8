// Treffer: a property activated in an account with 100,000 search profiles, until all its
// `prospect.matched` events are in the outbox (goal: within seconds). pnpm bench:outreach [--profiles 100000] [--threshold 70]
import { parseArgs } from 'node:util';
import { CursorCodec } from '@platform/http';
import type { JobQueue } from '@platform/service';
import { eventEmitter } from '@platform/webhooks';
import { seedProfiles } from './profiles-seed.js';
import { startBenchDatabase } from './support.js';
import { PROPERTY_EVENTS } from '../apps/property-service/src/events.js';
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
// Profiles spread as in bench:matching, all of one account, one in 20 restricted.
await seedProfiles(db, PROFILES);
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
