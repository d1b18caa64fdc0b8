import type { Db, Prisma } from '@platform/db';
import { PROPERTIES_FOR_MATCHING } from '../../properties/index.js';
import { reachableForOutreach } from '../consent/index.js';
import { normaliseLocation } from '../prospects/index.js';
import { locationKeys } from './location.js';
import { AREA_TOLERANCE, PRICE_TOLERANCE, ROOMS_TOLERANCE } from './model.js';

/** Statuses in which a property is on the market (the model's status knockout). */
export const MARKETED = ['active', 'reserved'] as const;

type PropertyRow = Prisma.PropertyGetPayload<object>;
type ProspectRow = Prisma.ProspectGetPayload<object>;

/**
 * The smallest whole budget that survives the model's price knockout (`price > budget × 1.2`),
 * computed with the model's own floating-point arithmetic, so the SQL condition
 * `budget >= minimum` is a plain integer comparison (indexable) that agrees with the model to
 * the last bit. `budget × 1.2` grows with the budget, so the surviving budgets are all from one
 * value up.
 */
export function minimumBudget(price: number): number {
  const out = (budget: number) => price > budget * (1 + PRICE_TOLERANCE);
  let budget = Math.floor(price / (1 + PRICE_TOLERANCE));
  while (out(budget)) budget++;
  while (!out(budget - 1)) budget--;
  return budget;
}

/**
 * The inquiry model (`inquiry-scoring.ts`) in SQL: the knockouts as WHERE conditions and the
 * weighted points (Preis 40, Lage 25, Zimmer 20, Wohnfläche 15, same tolerances and the same
 * floating-point operations in the same order) as the ORDER BY. What depends on the property
 * alone is decided here, so PostgreSQL evaluates only plain comparisons per profile: the price
 * knockout as `budget >= minimumBudget(price)`, the location as an overlap of the stored
 * normalised locations with the property's `locationKeys`. Only prospects that may be reached for
 * outreach are ranked (`reachableForOutreach`: valid marketing consent, no restriction, no
 * objection). A test keeps this in step with the
 * model.
 */
export async function rankProspectsInSql(
  db: Db,
  property: PropertyRow,
  limit: number,
  after?: { points: number; id: string },
): Promise<{ id: string; points: number }[]> {
  // Every value goes in as a parameter; only column names and fixed SQL are spliced into the text.
  const params: unknown[] = [];
  const param = (value: unknown, type: string) => `$${params.push(value)}::${type}`;
  // Price (40): one branch per way the property is offered; a profile looking for the other way is knocked out.
  const branches = (
    [
      ['sale', property.purchase_price_eur, 'profile_purchase_price_max'],
      ['rent', property.cold_rent_eur, 'profile_cold_rent_max'],
    ] as const
  ).flatMap(([marketing, price, budget]) => {
    if (price === null) return [];
    const p = param(price, 'float8');
    const where = `(profile_marketing = '${marketing}' AND (${budget} IS NULL OR ${budget} >= ${param(minimumBudget(price), 'int')}))`;
    const points = `CASE WHEN ${budget} IS NULL OR ${budget} >= ${p} THEN 40 ELSE 40 * GREATEST(0, 1 - (${p} - ${budget}) / (${budget} * ${param(PRICE_TOLERANCE, 'float8')})) END`;
    return [{ marketing, where, points }];
  });
  if (branches.length === 0) return [];
  const pricePoints =
    branches.length === 1
      ? branches[0].points
      : `CASE WHEN profile_marketing = 'rent' THEN ${branches.find((b) => b.marketing === 'rent')!.points} ELSE ${branches[0].points} END`;
  // Rooms (20) and living area (15): 1 at or above the minimum, then falling linearly; half the points if the property's value is unknown.
  const atLeast = (column: string, value: number | null, weight: number, tolerance: number) => {
    if (value === null) return `CASE WHEN ${column} IS NULL THEN ${weight} ELSE ${weight * 0.5}::float8 END`;
    const v = param(value, 'float8');
    return `CASE WHEN ${column} IS NULL OR ${column} <= ${v} THEN ${weight} ELSE ${weight} * GREATEST(0, 1 - (${column} - ${v}) / (${column} * ${param(tolerance, 'float8')})) END`;
  };
  const sql = `
    SELECT id, points FROM (
      SELECT id,
        (${pricePoints})
        + (CASE WHEN cardinality(profile_locations_norm) = 0 OR profile_locations_norm && ${param(locationKeys(property), 'text[]')} THEN 25 ELSE 0 END)
        + (${atLeast('profile_rooms_min', property.rooms, 20, ROOMS_TOLERANCE)})
        + (${atLeast('profile_living_area_min', property.living_area_sqm, 15, AREA_TOLERANCE)}) AS points
      FROM prospects AS p
      WHERE account_id = ${param(property.account_id, 'text')} AND profile_active AND ${reachableForOutreach('p')}
        AND (cardinality(profile_types) = 0 OR profile_types @> ARRAY[${param(property.type, '"PropertyType"')}])
        AND (${branches.map((b) => b.where).join(' OR ')})
    ) AS scored
    ${after ? `WHERE points < ${param(after.points, 'float8')} OR (points = ${param(after.points, 'float8')} AND id > ${param(after.id, 'text')})` : ''}
    ORDER BY points DESC, id ASC
    LIMIT ${param(limit, 'int')}`;
  return db.$queryRawUnsafe<{ id: string; points: number }[]>(sql, ...params);
}

/**
 * The inquiry model from the prospect's side in SQL: the knockouts as WHERE conditions on the
 * account's properties, the weighted points as an expression (Preis 40, Lage 25, Zimmer 20,
 * Wohnfläche 15; the prospect's values as `float8` parameters, the property's as columns, the
 * same floating-point operations in the same order as the model), ordered as the model's
 * ranking is: by the total rounded as the model rounds it (`Math.round`, halves up), then by id
 * (byte order, as JavaScript compares the ASCII ids). `points` is the model's unrounded sum,
 * `gesamt` its total. What depends on the prospect alone is decided here (no budget, no
 * locations, no minimum: constant points). A test keeps this in step with the model.
 *
 * Matching (the service) asks only for active, not anonymised profiles; this follows the model
 * for any prospect, including the type and offer-way knockouts that apply only with a profile.
 */
export async function rankPropertiesInSql(
  db: Db,
  prospect: ProspectRow,
  limit: number,
  after?: { gesamt: number; id: string },
): Promise<{ id: string; points: number; gesamt: number }[]> {
  // Every value goes in as a parameter; only column names and fixed SQL are spliced into the text.
  const params: unknown[] = [];
  const param = (value: unknown, type: string) => `$${params.push(value)}::${type}`;
  const rent = prospect.profile_marketing === 'rent';
  const price = rent ? 'cold_rent_eur' : 'purchase_price_eur';
  const budget = rent ? prospect.profile_cold_rent_max : prospect.profile_purchase_price_max;

  const where = [
    `account_id = ${param(prospect.account_id, 'text')}`,
    `status = ANY(${param([...MARKETED], '"PropertyStatus"[]')})`,
  ];
  if (prospect.has_profile && prospect.profile_types.length > 0)
    where.push(`type = ANY(${param(prospect.profile_types, '"PropertyType"[]')})`);
  if (prospect.has_profile) where.push(`${price} IS NOT NULL`);
  if (budget !== null) {
    // out when price > budget × 1.2, with the model's own product
    const bound = `${price} <= ${param(budget * (1 + PRICE_TOLERANCE), 'float8')}`;
    where.push(prospect.has_profile ? bound : `(${price} IS NULL OR ${bound})`);
  }

  // Price (40): `atMost` with the model's tolerance; a zero divisor is only reached by prices the model scores 0.
  let pricePoints = '40';
  if (budget !== null) {
    const b = param(budget, 'float8');
    const span = budget * PRICE_TOLERANCE;
    const falling = span === 0 ? '0' : `40 * GREATEST(0, 1 - (${price} - ${b}) / ${param(span, 'float8')})`;
    pricePoints = `CASE WHEN ${price} IS NULL THEN 0 WHEN ${price} <= ${b} THEN 40 ELSE ${falling} END`;
  }
  // Location (25): a wanted location (normalised as the model does) that is one of the city's keys
  // (`cityKeys`) or a prefix of the postal code (compared byte for byte, no LIKE).
  let locationPoints = '25';
  const wanted = [...new Set(prospect.profile_locations.map(normaliseLocation))];
  if (prospect.profile_locations.length > 0) {
    const matches = wanted.flatMap((o) => [
      cityPartIs(o, param),
      `starts_with(address_postal_code COLLATE "C", ${param(o, 'text')})`,
    ]);
    locationPoints = `CASE WHEN ${matches.join(' OR ')} THEN 25 ELSE 0 END`;
  }
  // Rooms (20) and living area (15): `atLeast`; half the points if the property's value is unknown.
  const atLeast = (column: string, minimum: number | null, weight: number, tolerance: number) => {
    if (minimum === null) return `${weight}`;
    const m = param(minimum, 'float8');
    const span = minimum * tolerance;
    const falling = span === 0 ? '0' : `${weight} * GREATEST(0, 1 - (${m} - ${column}) / ${param(span, 'float8')})`;
    return `CASE WHEN ${column} IS NULL THEN ${weight * 0.5}::float8 WHEN ${column} >= ${m} THEN ${weight} ELSE ${falling} END`;
  };
  const points = `(${pricePoints})::float8 + (${locationPoints}) + (${atLeast('rooms', prospect.profile_rooms_min, 20, ROOMS_TOLERANCE)}) + (${atLeast('living_area_sqm', prospect.profile_living_area_min, 15, AREA_TOLERANCE)})`;
  const sql = `
    SELECT * FROM (
      SELECT id, points, CASE WHEN points - floor(points) >= 0.5 THEN ceil(points) ELSE floor(points) END AS gesamt
      FROM (SELECT id, ${points} AS points FROM ${PROPERTIES_FOR_MATCHING} AS p ${LOWER_CITY} WHERE ${where.join(' AND ')} OFFSET 0) AS scored
    ) AS ranked
    ${after ? `WHERE gesamt < ${param(after.gesamt, 'float8')} OR (gesamt = ${param(after.gesamt, 'float8')} AND id COLLATE "C" > ${param(after.id, 'text')} COLLATE "C")` : ''}
    ORDER BY gesamt DESC, id COLLATE "C" ASC
    LIMIT ${param(limit, 'int')}`;
  return db.$queryRawUnsafe<{ id: string; points: number; gesamt: number }[]>(sql, ...params);
}

/**
 * `city_lower`: the city lower-cased as JavaScript does it (ICU's full Unicode mapping; the
 * database's collation may be "C", which lower-cases ASCII only), once per row (`OFFSET 0` keeps
 * the planner from copying the call into every comparison of `cityPartIs`).
 */
const LOWER_CITY = `CROSS JOIN LATERAL (SELECT lower(p.address_city COLLATE "und-x-icu") COLLATE "C" AS city_lower OFFSET 0) AS lowered`;

/**
 * `cityKeys` in SQL for one wanted location `o`: the lower-cased city's leading part as long as
 * `o` (in code points), ending at the end or before a hyphen or space, is `o`, or is `o` with its
 * spaces as hyphens (when `o` has hyphens only) or its hyphens as spaces (when it has spaces only).
 */
function cityPartIs(o: string, param: (value: unknown, type: string) => string): string {
  const city = 'city_lower';
  const length = param([...o].length, 'int');
  const part = `left(${city}, ${length})`;
  const w = param(o, 'text');
  const spelled = [`${part} = ${w}`];
  if (o.includes('-') && !o.includes(' ')) spelled.push(`translate(${part}, ' ', '-') = ${w}`);
  if (o.includes(' ') && !o.includes('-')) spelled.push(`translate(${part}, '-', ' ') = ${w}`);
  const boundary = `(char_length(${city}) = ${length} OR substr(${city}, ${length} + 1, 1) IN (' ', '-'))`;
  return `((${spelled.join(' OR ')}) AND ${boundary})`;
}
