// Anonymising 100,000 expired prospects (goal: under 30 s). pnpm bench:anonymise [--count 100000]
import { parseArgs } from 'node:util';
import { endViewingsOfForgotten } from '../apps/property-service/src/appointments/index.js';
import { anonymiseExpired } from '../apps/property-service/src/leads/retention/index.js';
import { startBenchDatabase } from './support.js';

const { values } = parseArgs({ options: { count: { type: 'string', default: '100000' } } });
const COUNT = Number(values.count);
const bench = await startBenchDatabase('anon');
const { db } = bench;
// COUNT expired prospects plus as many that must stay untouched.
await db.$executeRawUnsafe(`
  INSERT INTO prospects (id, account_id, first_name, last_name, email, phone, consent_purpose, consent_given_at,
    has_profile, profile_active, profile_types, profile_locations, profile_locations_norm, profile_rooms_min, last_activity_at, retention_until, created_at, updated_at)
  SELECT 'int_' || g, 'acct_bench', 'Vorname' || g, 'Nachname' || g, 'p' || g || '@example.de', '+49 30 ' || g, 'Kontakt', now(),
    true, true, ARRAY['apartment']::"PropertyType"[], ARRAY['Berlin'], ARRAY['berlin'], 2, now() - interval '200 days',
    CASE WHEN g <= ${COUNT} THEN current_date - 1 ELSE current_date + 30 END, now() - interval '200 days', now()
  FROM generate_series(1, ${COUNT * 2}) AS g`);
await db.$executeRawUnsafe('ANALYZE prospects');
const start = performance.now();
const anonymised = await anonymiseExpired(db, new Date(), endViewingsOfForgotten);
const seconds = (performance.now() - start) / 1000;
const left = await db.prospect.count({ where: { anonymised_at: null } });
console.log(
  JSON.stringify(
    {
      expired: COUNT,
      anonymised,
      untouched: left,
      seconds: Number(seconds.toFixed(2)),
      per_second: Math.round(anonymised / seconds),
    },
    null,
    2,
  ),
);
await bench.close();
process.exit(0);
