// Valuation of a property against 100,000 market transactions of its account (goal: p95 < 50 ms),
// through the property API (GET /v1/properties/{id}/valuation, real HTTP, undici keep-alive).
// Five subjects: a dense postal code (sale and rent), a code without transactions whose 3-digit
// prefix has many (widening to 3 digits), one in a sparse region (widening to 2 digits), a house
// without a year built. Per subject WARM_UP + RUNS requests; then the two phases in-process (the
// candidates' queries of repository.ts, the pure method) and `EXPLAIN (ANALYZE, BUFFERS)` of the queries.
//   pnpm bench:valuation [--transactions 100000] [--runs 50] [--explain]
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { findCandidates } from '../apps/property-service/src/valuations/repository.js';
import {
  lookbackStart,
  postalCodePrefixes,
  valuate,
  type ValuationSubject,
} from '../apps/property-service/src/valuations/method.js';
import { startPropertyStack } from './property-stack.js';
import { percentiles } from './support.js';

const { values } = parseArgs({
  options: {
    transactions: { type: 'string', default: '100000' },
    own: { type: 'string', default: '500' },
    runs: { type: 'string', default: '50' },
    explain: { type: 'boolean', default: false },
  },
});
const TRANSACTIONS = Number(values.transactions);
const OWN = Number(values.own);
const RUNS = Number(values.runs);
const WARM_UP = 5;
const GOAL_P95_MS = 50;

const stack = await startPropertyStack({ name: 'valuation', scopes: ['valuations:read'] });
const { db, apiUrl, key, accountId } = stack;
const client = new Agent({ connections: 2 });
try {
  // ---- Data, in SQL ----------------------------------------------------------------------------
  // u(k): a uniform number in [0, 1) per row g and draw k (deterministic, so every run has the same data).
  const u = (k: number) => `((hashint8(g::bigint * 16 + ${k}) & 2147483647)::float8 / 2147483648)`;
  // Type: 50 % apartments, 30 % houses, 10 % commercial, 5 % land, 5 % parking. Marketing: 60 % sale.
  const type = `(CASE WHEN ${u(1)} < 0.5 THEN 'apartment' WHEN ${u(1)} < 0.8 THEN 'house' WHEN ${u(1)} < 0.9 THEN 'commercial' WHEN ${u(1)} < 0.95 THEN 'land' ELSE 'parking' END)`;
  // Postal code: 25 % in the agency's own region (10xxx, Berlin): 40 % of those in 10115, the rest on
  // the 200 codes 10000, 10005, …, 10995 (never 10119: the subject that widens to 3 digits); 75 %
  // spread over 11000–99998 (~0.8 per code, ~80 per 3-digit and ~800 per 2-digit prefix).
  const postal = `(CASE WHEN ${u(2)} < 0.25 THEN (CASE WHEN ${u(3)} < 0.4 THEN '10115' ELSE '10' || lpad((floor(${u(4)} * 200)::int * 5)::text, 3, '0') END)
    ELSE (11000 + floor(${u(4)} * 88999)::int)::text END)`;
  // Living area by type; year built 1900–2025 (10 % unknown); dates over the last 6 years (half in the 36 months).
  const area = `round((CASE t.type WHEN 'apartment' THEN 25 + ${u(5)} * 135 WHEN 'house' THEN 80 + ${u(5)} * 220 WHEN 'commercial' THEN 50 + ${u(5)} * 950
    WHEN 'land' THEN 200 + ${u(5)} * 1800 ELSE 12 + ${u(5)} * 18 END)::numeric, 1)::float8`;
  const year = `(CASE WHEN ${u(6)} < 0.1 THEN NULL ELSE 1900 + floor(${u(7)} * 126)::int END)`;
  // Price per m²: sale 2,000–4,500 € (Berlin 4,000–7,000 €), rent 7–12 € (Berlin 11–19 €), houses
  // ×0.85; 2 % outliers (×4 or ÷4).
  const perSqm = `(CASE WHEN t.marketing = 'sale' THEN (CASE WHEN t.postal_code LIKE '10%' THEN 4000 + ${u(8)} * 3000 ELSE 2000 + ${u(8)} * 2500 END)
    ELSE (CASE WHEN t.postal_code LIKE '10%' THEN 11 + ${u(8)} * 8 ELSE 7 + ${u(8)} * 5 END) END)
    * (CASE WHEN t.type = 'house' THEN 0.85 ELSE 1 END) * (CASE WHEN ${u(9)} < 0.01 THEN 4 WHEN ${u(9)} < 0.02 THEN 0.25 ELSE 1 END)`;

  const setupStart = Date.now();
  await db.$executeRawUnsafe(
    `
    INSERT INTO market_transactions (id, account_id, type, marketing, postal_code, living_area_sqm, year_built, price_eur, date, source_ref)
    SELECT 'mtx_' || lpad(g::text, 6, '0'), $1, t.type, t.marketing, t.postal_code, ${area}, ${year}, greatest(1, round(${area} * ${perSqm}))::int,
           current_date - floor(${u(10)} * 2190)::int, 'bench.csv:' || g
    FROM generate_series(1, $2::int) AS g
    CROSS JOIN LATERAL (SELECT ${type}::"PropertyType" AS type, (CASE WHEN ${u(11)} < 0.6 THEN 'sale' ELSE 'rent' END)::"TransactionMarketing" AS marketing, ${postal} AS postal_code) AS t`,
    accountId,
    TRANSACTIONS,
  );
  // The account's own sales and lettings (properties sold or rented with a transaction price), all in its region.
  await db.$executeRawUnsafe(
    `
    INSERT INTO properties (id, account_id, status, type, title, address_postal_code, address_city, living_area_sqm, year_built, transaction_price_eur, transaction_date)
    SELECT 'prop_own_' || g, $1, t.status, t.type, 'Own ' || g, t.postal_code, 'Berlin', ${area}, ${year}, greatest(1, round(${area} * ${perSqm}))::int,
           current_date - floor(${u(10)} * 1460)::int
    FROM generate_series(1, $2::int) AS g
    CROSS JOIN LATERAL (SELECT ${type}::"PropertyType" AS type, (CASE WHEN ${u(11)} < 0.6 THEN 'sale' ELSE 'rent' END) AS marketing,
      (CASE WHEN ${u(11)} < 0.6 THEN 'sold' ELSE 'rented' END)::"PropertyStatus" AS status,
      (CASE WHEN ${u(3)} < 0.4 THEN '10115' ELSE '10' || lpad((floor(${u(4)} * 200)::int * 5)::text, 3, '0') END) AS postal_code) AS t`,
    accountId,
    OWN,
  );
  await db.$executeRawUnsafe('ANALYZE market_transactions');
  await db.$executeRawUnsafe('ANALYZE properties');
  const setupSeconds = (Date.now() - setupStart) / 1000;

  interface Subject {
    id: string;
    label: string;
    type: 'apartment' | 'house';
    postal_code: string;
    living_area_sqm: number;
    year_built: number | null;
    /** A cold rent and no purchase price: valued as a letting. */
    rent?: boolean;
  }
  const SUBJECTS: Subject[] = [
    {
      id: 'prop_dense_sale',
      label: 'apartment, sale, 10115 (dense)',
      type: 'apartment',
      postal_code: '10115',
      living_area_sqm: 75,
      year_built: 1995,
    },
    {
      id: 'prop_dense_rent',
      label: 'apartment, rent, 10115 (dense)',
      type: 'apartment',
      postal_code: '10115',
      living_area_sqm: 60,
      year_built: 1970,
      rent: true,
    },
    {
      id: 'prop_widen_3',
      label: 'apartment, sale, 10119 (→ 3 digits)',
      type: 'apartment',
      postal_code: '10119',
      living_area_sqm: 90,
      year_built: 2005,
    },
    {
      id: 'prop_widen_2',
      label: 'house, sale, 14469 (→ 2 digits)',
      type: 'house',
      postal_code: '14469',
      living_area_sqm: 140,
      year_built: 1985,
    },
    {
      id: 'prop_house_noyear',
      label: 'house, sale, 10115, no year built',
      type: 'house',
      postal_code: '10115',
      living_area_sqm: 160,
      year_built: null,
    },
  ];
  for (const s of SUBJECTS) {
    await db.property.create({
      data: {
        id: s.id,
        account_id: accountId,
        status: 'active',
        type: s.type,
        title: s.label,
        address_postal_code: s.postal_code,
        address_city: 'Bench',
        living_area_sqm: s.living_area_sqm,
        year_built: s.year_built,
        ...(s.rent ? { cold_rent_eur: 900 } : { purchase_price_eur: 450_000 }),
      },
    });
  }

  interface ValuationBody {
    estimate_eur: number | null;
    confidence: string | null;
    selection: { postal_code_prefix: string; widened: boolean };
    statistics: { usable_count: number } | null;
    comparables: unknown[];
    excluded: { count: number };
  }

  async function valuation(id: string): Promise<{ ms: number; bytes: number; body: ValuationBody }> {
    const start = performance.now();
    const r = await request(`${apiUrl}/v1/properties/${id}/valuation`, {
      dispatcher: client,
      headers: { apikey: key },
    });
    const text = await r.body.text();
    const ms = performance.now() - start;
    if (r.statusCode !== 200) throw new Error(`GET valuation of ${id}: ${r.statusCode} ${text}`);
    return { ms, bytes: Buffer.byteLength(text), body: JSON.parse(text) as ValuationBody };
  }

  const rows = [];
  for (const s of SUBJECTS) {
    const times: number[] = [];
    let last: Awaited<ReturnType<typeof valuation>> | undefined;
    for (let i = 0; i < WARM_UP + RUNS; i++) {
      last = await valuation(s.id);
      times.push(last.ms);
    }
    const { body, bytes } = last!;
    rows.push({
      subject: s.label,
      prefix: body.selection.postal_code_prefix,
      listed: body.comparables.length,
      excluded: body.excluded.count,
      usable: body.statistics?.usable_count ?? 0,
      estimate: body.estimate_eur,
      confidence: body.confidence,
      kib: Math.round(bytes / 1024),
      ...percentiles(times, WARM_UP),
    });
  }

  // ---- The phases in-process: findCandidates level by level, then the pure method (no HTTP) -------
  const asOf = new Date().toISOString().slice(0, 10);
  const subjectOf = (s: Subject): ValuationSubject => ({
    type: s.type,
    marketing: s.rent ? 'rent' : 'sale',
    postal_code: s.postal_code,
    living_area_sqm: s.living_area_sqm,
    year_built: s.year_built,
    as_of: asOf,
  });
  const phases = [];
  for (const s of SUBJECTS) {
    const subject = subjectOf(s);
    const queryTimes: number[] = [];
    const methodTimes: number[] = [];
    const jsonTimes: number[] = [];
    const rawTimes: number[] = [];
    let candidates = 0;
    let levelsRead = 0;
    let listed = { count: 0, excluded: 0, kib: 0 };
    // The market_transactions rows of the whole 2-digit prefix by a raw query (what was read before
    // the level-by-level reading), and how many the full postal code alone has.
    const rawSql = `SELECT id, type::text, postal_code, living_area_sqm, year_built, price_eur, to_char(date, 'YYYY-MM-DD') AS date FROM market_transactions
      WHERE account_id = $1 AND type = $2::"PropertyType" AND marketing = $3::"TransactionMarketing" AND postal_code LIKE $4 AND date >= $5::date AND date <= $6::date`;
    const rawArgs = (prefix: string) => [accountId, s.type, subject.marketing, `${prefix}%`, lookbackStart(asOf), asOf];
    const fullCode = await db.$queryRawUnsafe<unknown[]>(rawSql, ...rawArgs(s.postal_code));
    for (let i = 0; i < WARM_UP + 20; i++) {
      const rawStart = performance.now();
      await db.$queryRawUnsafe(rawSql, ...rawArgs(s.postal_code.slice(0, 2)));
      rawTimes.push(performance.now() - rawStart);
      // As the service does: read one postal-code level, value, widen only when the method widens beyond it.
      let queryMs = 0;
      let methodMs = 0;
      let result: ReturnType<typeof valuate> | undefined;
      const prefixes = postalCodePrefixes(s.postal_code);
      for (const [level, prefix] of prefixes.entries()) {
        let start = performance.now();
        const found = await findCandidates(db, {
          accountId,
          excludeId: s.id,
          type: s.type,
          marketing: subject.marketing,
          postalCodePrefix: prefix,
          asOf,
        });
        queryMs += performance.now() - start;
        start = performance.now();
        result = valuate(subject, found);
        methodMs += performance.now() - start;
        candidates = found.length;
        levelsRead = level + 1;
        if (result.selection.postal_code_prefix.length >= prefix.length || level === prefixes.length - 1) break;
      }
      queryTimes.push(queryMs);
      methodTimes.push(methodMs);
      const start = performance.now();
      const json = JSON.stringify(result);
      jsonTimes.push(performance.now() - start);
      listed = {
        count: result!.comparables.length,
        excluded: result!.excluded.count,
        kib: Math.round(Buffer.byteLength(json) / 1024),
      };
    }
    phases.push({
      subject: s.label,
      levels_read: levelsRead,
      candidates_last_level: candidates,
      imported_2_digits: (await db.$queryRawUnsafe<unknown[]>(rawSql, ...rawArgs(s.postal_code.slice(0, 2)))).length,
      imported_5_digits: fullCode.length,
      query_p50_ms: percentiles(queryTimes).p50_ms,
      raw_query_p50_ms: percentiles(rawTimes).p50_ms,
      method_p50_ms: percentiles(methodTimes).p50_ms,
      stringify_p50_ms: percentiles(jsonTimes).p50_ms,
      listed: listed.count,
      excluded: listed.excluded,
      kib: listed.kib,
    });
  }

  console.log(
    JSON.stringify({
      transactions: TRANSACTIONS,
      own_transactions: OWN,
      setup_s: setupSeconds,
      runs_per_subject: RUNS,
      as_of: asOf,
      load_average: loadavg().map((l) => Number(l.toFixed(1))),
    }),
  );
  console.table(rows);
  console.log(
    'In-process (20 runs after 5): findCandidates level by level ($queryRaw, summed over the levels read), the imported rows of the whole 2-digit prefix by $queryRaw (the old read), valuate() (summed), JSON.stringify of the result; comparables listed, excluded and the result size',
  );
  console.table(phases);
  const worst = Math.max(...rows.map((r) => r.p95_ms));
  console.log(`Goal p95 < ${GOAL_P95_MS} ms: ${worst < GOAL_P95_MS ? 'met' : 'NOT met'} (worst p95 ${worst} ms)`);

  // ---- EXPLAIN of the queries of repository.ts (as Prisma sends them: LIKE 'prefix%', the date window) --
  if (values.explain || worst >= GOAL_P95_MS) {
    const s = SUBJECTS[0];
    const prefix = s.postal_code.slice(0, 2);
    const from = lookbackStart(asOf);
    const explain = async (title: string, sql: string) => {
      const plan = await db.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`);
      console.log(`\n-- ${title}\n${plan.map((p) => p['QUERY PLAN']).join('\n')}`);
    };
    await explain(
      `market_transactions of ${s.label}`,
      `SELECT id, type, postal_code, living_area_sqm, year_built, price_eur, date FROM market_transactions
       WHERE account_id = '${accountId}' AND type = 'apartment' AND marketing = 'sale' AND postal_code LIKE '${prefix}%'
         AND date >= '${from}' AND date <= '${asOf}'`,
    );
    await explain(
      `own properties of ${s.label}`,
      `SELECT id, type, address_postal_code, living_area_sqm, year_built, transaction_price_eur, transaction_date FROM properties
       WHERE account_id = '${accountId}' AND id <> '${s.id}' AND type = 'apartment' AND status = 'sold' AND address_postal_code LIKE '${prefix}%'
         AND transaction_price_eur IS NOT NULL AND transaction_date >= '${from}' AND transaction_date <= '${asOf}' AND living_area_sqm IS NOT NULL`,
    );
    const collation = await db.$queryRawUnsafe<{ datcollate: string }[]>(
      'SELECT datcollate FROM pg_database WHERE datname = current_database()',
    );
    console.log(`\ndatabase collation: ${collation[0]?.datcollate}`);
  }
} finally {
  await client.close();
  await stack.close(); // also when a step fails: no server or temp dir is left behind
}
process.exit(0);
