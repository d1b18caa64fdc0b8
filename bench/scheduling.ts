// Viewings: (a) allocating a slot of capacity 20 for a property with 10,000 scored inquiries, and
// (b) concurrent clients booking overlapping times for the same host; both through the property
// API (real HTTP). Reports allocation p50/p95/max and, for the bookings, requests/s, the statuses and
// the double bookings the database holds afterwards (a self-join on `during &&`).
//   pnpm bench:scheduling [--inquiries 10000] [--allocations 60] [--clients 50] [--seconds 10] [--explain]
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { sql, type Db } from '@platform/db';
import { inviteesOf } from '../apps/property-service/src/viewing-slots/invitees.js';
import { startPropertyStack } from './property-stack.js';
import { percentiles } from './support.js';

const { values } = parseArgs({
  options: {
    inquiries: { type: 'string', default: '10000' },
    allocations: { type: 'string', default: '60' },
    clients: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '10' },
    explain: { type: 'boolean', default: false },
  },
});
const INQUIRIES = Number(values.inquiries);
const ALLOCATIONS = Number(values.allocations);
const WARM_UP = 5;
const CLIENTS = Number(values.clients);
const SECONDS = Number(values.seconds);
const CAPACITY = 20;
const HOUR = 3_600_000;

const stack = await startPropertyStack({ name: 'scheduling', scopes: ['appointments:write'] }); // nothing is uploaded or queued; the app needs a storage and a queue
const { db, apiUrl, key } = stack;
const client = new Agent({ connections: CLIENTS + 4 });

async function call(path: string, body: object): Promise<{ status: number; json: unknown }> {
  const r = await request(`${apiUrl}${path}`, {
    method: 'POST',
    dispatcher: client,
    headers: { apikey: key, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await r.body.text();
  return { status: r.statusCode, json: text ? JSON.parse(text) : null };
}

// The data, in SQL: one active property, INQUIRIES prospects with one inquiry each; scores 0–100
// spread evenly, many ties, every 8th inquiry knocked out, every 50th prospect anonymised.
const setupStart = Date.now();
await db.property.create({
  data: {
    id: 'prop_bench',
    account_id: 'acct_bench',
    type: 'apartment',
    status: 'active',
    title: 'Bench',
    address_postal_code: '10115',
    address_city: 'Berlin',
  },
});
await db.$executeRawUnsafe(
  `INSERT INTO prospects (id, account_id, last_activity_at, retention_until, anonymised_at, created_at, updated_at)
   SELECT 'int_' || lpad(g::text, 6, '0'), 'acct_bench', now(), current_date + 180, CASE WHEN g % 50 = 0 THEN now() END, now(), now()
   FROM generate_series(1, $1::int) g`,
  INQUIRIES,
);
await db.$executeRawUnsafe(
  `INSERT INTO inquiries (id, account_id, property_id, prospect_id, score, weights_version, score_details, scored_at, created_at)
   SELECT 'inq_' || lpad(g::text, 6, '0'), 'acct_bench', 'prop_bench', 'int_' || lpad(g::text, 6, '0'), (g * 37) % 101, 'v1',
          jsonb_build_object('ausgeschlossen', g % 8 = 0, 'kriterien', '[]'::jsonb), now(), now() - make_interval(secs => g)
   FROM generate_series(1, $1::int) g`,
  INQUIRIES,
);
await db.$executeRawUnsafe('ANALYZE');
const setupSeconds = (Date.now() - setupStart) / 1000;

// (a) Allocation: each run on a fresh slot at another time (one hour each, from tomorrow on), from the same state.
const base = Math.ceil(Date.now() / HOUR) * HOUR + 24 * HOUR;
const at = (offset: number) => new Date(base + offset).toISOString();
const times: number[] = [];
let invited = 0;
for (let i = 0; i < WARM_UP + ALLOCATIONS; i++) {
  const slot = await call('/v1/properties/prop_bench/viewing-slots', {
    starts_at: at(i * HOUR),
    ends_at: at(i * HOUR + HOUR),
    capacity: CAPACITY,
    host: 'Agent A',
  });
  if (slot.status !== 201) throw new Error(`slot: ${slot.status} ${JSON.stringify(slot.json)}`);
  const started = performance.now();
  const allocated = await call(`/v1/viewing-slots/${(slot.json as { id: string }).id}/allocate`, {});
  times.push(performance.now() - started);
  if (allocated.status !== 200) throw new Error(`allocate: ${allocated.status} ${JSON.stringify(allocated.json)}`);
  const count = (allocated.json as { data: unknown[] }).data.length;
  if (count !== CAPACITY) throw new Error(`allocate: ${count} appointments instead of ${CAPACITY}`);
  invited += count;
  // Every run allocates against the same 10,000 inquiries: the invited prospects are set free again
  // (otherwise each run would first walk past all those invited before, which no single slot does).
  await db.appointment.deleteMany({ where: { slot_id: (slot.json as { id: string }).id } });
}
const allocation = {
  inquiries: INQUIRIES,
  capacity: CAPACITY,
  runs: ALLOCATIONS,
  warm_up: WARM_UP,
  invited,
  ...percentiles(times, WARM_UP),
};

// The allocation query alone (no HTTP, no transaction, no inserts), for fresh times: what of the request it is.
const queryTimes: number[] = [];
for (let i = 0; i < WARM_UP + 20; i++) {
  const offset = (WARM_UP + ALLOCATIONS + 2 + i) * HOUR;
  const started = performance.now();
  await inviteesOf(
    db,
    {
      account_id: 'acct_bench',
      property_id: 'prop_bench',
      starts_at: new Date(base + offset),
      ends_at: new Date(base + offset + HOUR),
    },
    CAPACITY,
  );
  queryTimes.push(performance.now() - started);
}
console.log(JSON.stringify({ allocation_query_alone: percentiles(queryTimes, WARM_UP) }));

/** EXPLAIN (ANALYZE, BUFFERS) of the allocation query itself, for one more fresh slot. */
async function explainAllocation(): Promise<string> {
  const explaining = {
    $queryRaw: (strings: readonly string[], ...values: unknown[]) =>
      db.$queryRaw`EXPLAIN (ANALYZE, BUFFERS) ${sql(strings, ...values)}`,
  } as unknown as Db;
  const offset = (WARM_UP + ALLOCATIONS + 1) * HOUR;
  const rows = (await inviteesOf(
    explaining,
    {
      account_id: 'acct_bench',
      property_id: 'prop_bench',
      starts_at: new Date(base + offset),
      ends_at: new Date(base + offset + HOUR),
    },
    CAPACITY,
  )) as unknown as { 'QUERY PLAN': string }[];
  return rows.map((row) => row['QUERY PLAN']).join('\n');
}
console.log(JSON.stringify({ setup_seconds: setupSeconds, allocation }));
const plan = values.explain || allocation.p95_ms >= 50 ? await explainAllocation() : undefined;

// (b) Bookings: CLIENTS clients for SECONDS book random 15–90 min ranges within 6 hours (in steps of
// 5 min, ten days ahead) for the same host, each request for the inquiry of another prospect.
const windowStart = base + 10 * 24 * HOUR;
const STEP = 5 * 60_000;
const free = await db.$queryRawUnsafe<{ id: string }[]>(
  `SELECT i.id FROM inquiries i WHERE i.property_id = 'prop_bench'
     AND NOT EXISTS (SELECT 1 FROM appointments a WHERE a.prospect_id = i.prospect_id) ORDER BY md5(i.id)`,
);
let next = 0;
const statuses = new Map<string, number>();
const bookingStart = performance.now();
const deadline = bookingStart + SECONDS * 1000;
await Promise.all(
  Array.from({ length: CLIENTS }, async () => {
    while (performance.now() < deadline) {
      const inquiry = free[next++ % free.length].id;
      const start = windowStart + Math.floor(Math.random() * 66) * STEP; // 0 … 5 h 30 min
      const end = start + (3 + Math.floor(Math.random() * 16)) * STEP; // 15 … 90 min
      const body = {
        inquiry_id: inquiry,
        starts_at: new Date(start).toISOString(),
        ends_at: new Date(end).toISOString(),
        host: 'Agent B',
      };
      const outcome = await call('/v1/appointments', body).then(
        (r) => String(r.status),
        (error: { code?: string }) => error.code ?? 'network_error', // e.g. the server closed a connection whose request outlived its timeout
      );
      statuses.set(outcome, (statuses.get(outcome) ?? 0) + 1);
    }
  }),
);
const bookingSeconds = (performance.now() - bookingStart) / 1000;
const requests = [...statuses.values()].reduce((a, b) => a + b, 0);
const [{ overlaps }] = await db.$queryRawUnsafe<{ overlaps: number }[]>(
  `SELECT count(*)::int AS overlaps FROM appointments a JOIN appointments b
     ON a.account_id = b.account_id AND a.host = b.host AND a.id < b.id AND a.during && b.during
     AND COALESCE(a.slot_id, a.id) <> COALESCE(b.slot_id, b.id)
   WHERE a.status IN ('proposed', 'confirmed') AND b.status IN ('proposed', 'confirmed')`,
);
const [{ booked }] = await db.$queryRawUnsafe<{ booked: number }[]>(
  `SELECT count(*)::int AS booked FROM appointments WHERE host = 'Agent B'`,
);
const counted = (status: string) => statuses.get(status) ?? 0;
const booking = {
  clients: CLIENTS,
  seconds: Number(bookingSeconds.toFixed(1)),
  requests,
  requests_per_second: Math.round(requests / bookingSeconds),
  status_201: counted('201'),
  status_409: counted('409'),
  other: Object.fromEntries([...statuses].filter(([s]) => s !== '201' && s !== '409')),
  host_appointments_in_db: booked,
  double_bookings_in_db: overlaps,
};

console.log(JSON.stringify({ booking }, null, 2));
if (plan) console.log(`\nEXPLAIN ANALYZE of the allocation query:\n${plan}`);
const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
console.log(
  `\nGoals: allocation p95 < 50 ms: ${met(allocation.p95_ms < 50)}; zero double bookings: ${met(overlaps === 0)}; zero 500s: ${met(![...statuses.keys()].some((s) => !/^[1-4]/.test(s)))}`,
);

await client.close();
await stack.close();
process.exit(0);
