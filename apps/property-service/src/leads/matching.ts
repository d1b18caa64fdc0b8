import type { Prisma, PrismaClient } from '@platform/db';
import { ApiError, type CursorCodec, toSeite, validationError } from '@platform/http';
import { AREA_TOLERANCE, locationKeys, PRICE_TOLERANCE, ROOMS_TOLERANCE, scoreInquiry, type Bewertung } from './inquiry-scoring.js';
import { toInteressent } from './prospect-mapping.js';
import { prospectNotFound } from './prospect-service.js';

const MARKETED = ['active', 'reserved'] as const;
const PRICE_KNOCKOUT = 1.2; // the scoring model's knockout: price more than 20 % above budget

type PropertyRow = Prisma.PropertyGetPayload<object>;
type ProspectRow = Prisma.ProspectGetPayload<object>;

/** The model's knockouts from the prospect's side, as SQL conditions on properties. */
function propertyCandidates(prospect: ProspectRow): Prisma.PropertyWhereInput {
  const rent = prospect.profil_vermarktung === 'miete';
  const budget = rent ? prospect.profil_kaltmiete_max : prospect.profil_kaufpreis_max;
  const priceField = rent ? 'cold_rent_eur' : 'purchase_price_eur';
  return {
    account_id: prospect.account_id,
    status: { in: [...MARKETED] },
    ...(prospect.profil_typ.length > 0 ? { type: { in: prospect.profil_typ } } : {}),
    [priceField]: budget === null ? { not: null } : { not: null, lte: Math.floor(budget * PRICE_KNOCKOUT) },
  };
}

interface Ranked<T> {
  item: T;
  bewertung: Bewertung;
}

function rank<T extends { id: string }>(items: Ranked<T>[]): Ranked<T>[] {
  return items.filter((r) => !r.bewertung.ausgeschlossen).sort((a, b) => b.bewertung.gesamt - a.bewertung.gesamt || (a.item.id < b.item.id ? -1 : 1));
}

export type MatchingService = ReturnType<typeof createMatchingService>;

/** Automatic matching in both directions, ranked by the inquiry scoring model, with the same explanation. */
export function createMatchingService({ db, cursors }: { db: PrismaClient; cursors: CursorCodec }) {
  function page<T>(ranked: T[], scope: string, query: { limit: number; cursor?: string }) {
    const offset = query.cursor ? Number(cursors.decode(query.cursor, scope).id) : 0;
    if (!Number.isInteger(offset) || offset < 0) throw validationError([{ field: 'cursor', reason: 'invalid_format' }]);
    const items = ranked.slice(offset, offset + query.limit);
    const more = offset + query.limit < ranked.length;
    const next = more ? cursors.encode({ createdAt: new Date(0), id: String(offset + query.limit) }, scope) : null;
    return toSeite({ data: items, page: { next_cursor: next, has_more: more } });
  }

  return {
    /**
     * Ranked in SQL (knockouts as indexed conditions, the model's points as an expression), so a
     * property is matched against any number of profiles without reading them; only the page
     * is read and scored exactly by the model.
     */
    async prospectsForProperty(accountId: string, propertyId: string, query: { limit: number; cursor?: string }) {
      const property = await db.property.findFirst({ where: { id: propertyId, account_id: accountId } });
      if (!property) throw new ApiError('not_found', { message: 'No property with this id.', messageDe: 'Keine Immobilie mit dieser ID.' });
      const scope = `matches:property:${propertyId}`;
      const offset = query.cursor ? Number(cursors.decode(query.cursor, scope).id) : 0;
      if (!Number.isInteger(offset) || offset < 0) throw validationError([{ field: 'cursor', reason: 'invalid_format' }]);
      if (!(MARKETED as readonly string[]).includes(property.status)) return toSeite({ data: [], page: { next_cursor: null, has_more: false } });
      const ranked = await rankProspectsInSql(db, property, query.limit + 1, offset);
      const rows = ranked.length > 0 ? await db.prospect.findMany({ where: { id: { in: ranked.map((r) => r.id) } } }) : [];
      const byId = new Map(rows.map((r) => [r.id, r]));
      const items = ranked.slice(0, query.limit).map((r) => {
        const prospect = byId.get(r.id)!;
        return { interessent: toInteressent(prospect), bewertung: scoreInquiry({ property, prospect }) };
      });
      const more = ranked.length > query.limit;
      const next = more ? cursors.encode({ createdAt: new Date(0), id: String(offset + query.limit) }, scope) : null;
      return toSeite({ data: items, page: { next_cursor: next, has_more: more } });
    },

    async propertiesForProspect(accountId: string, prospectId: string, query: { limit: number; cursor?: string }) {
      const prospect = await db.prospect.findFirst({ where: { id: prospectId, account_id: accountId } });
      if (!prospect) throw prospectNotFound();
      const candidates = prospect.profil_aktiv && !prospect.anonymised_at ? await db.property.findMany({ where: propertyCandidates(prospect) }) : [];
      const ranked = rank(candidates.map((property) => ({ item: property, bewertung: scoreInquiry({ property, prospect }) })));
      return page(
        ranked.map((r) => ({ immobilie_id: r.item.id, titel: r.item.title, status: r.item.status, bewertung: r.bewertung })),
        `matches:prospect:${prospectId}`,
        query,
      );
    },
  };
}

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
 * normalised locations with the property's `locationKeys`. A test keeps this in step with the
 * model.
 */
export async function rankProspectsInSql(db: PrismaClient, property: PropertyRow, limit: number, offset: number): Promise<{ id: string; points: number }[]> {
  // Every value goes in as a parameter; only column names and fixed SQL are spliced into the text.
  const params: unknown[] = [];
  const param = (value: unknown, type: string) => `$${params.push(value)}::${type}`;
  // Price (40): one branch per way the property is offered; a profile looking for the other way is knocked out.
  const branches = (
    [
      ['kauf', property.purchase_price_eur, 'profil_kaufpreis_max'],
      ['miete', property.cold_rent_eur, 'profil_kaltmiete_max'],
    ] as const
  ).flatMap(([marketing, price, budget]) => {
    if (price === null) return [];
    const p = param(price, 'float8');
    const where = `(profil_vermarktung = '${marketing}' AND (${budget} IS NULL OR ${budget} >= ${param(minimumBudget(price), 'int')}))`;
    const points = `CASE WHEN ${budget} IS NULL OR ${budget} >= ${p} THEN 40 ELSE 40 * GREATEST(0, 1 - (${p} - ${budget}) / (${budget} * ${param(PRICE_TOLERANCE, 'float8')})) END`;
    return [{ marketing, where, points }];
  });
  if (branches.length === 0) return [];
  const pricePoints =
    branches.length === 1 ? branches[0].points : `CASE WHEN profil_vermarktung = 'miete' THEN ${branches.find((b) => b.marketing === 'miete')!.points} ELSE ${branches[0].points} END`;
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
        + (CASE WHEN cardinality(profil_orte_norm) = 0 OR profil_orte_norm && ${param(locationKeys(property), 'text[]')} THEN 25 ELSE 0 END)
        + (${atLeast('profil_zimmer_min', property.rooms, 20, ROOMS_TOLERANCE)})
        + (${atLeast('profil_wohnflaeche_min', property.living_area_sqm, 15, AREA_TOLERANCE)}) AS points
      FROM prospects
      WHERE account_id = ${param(property.account_id, 'text')} AND profil_aktiv AND anonymised_at IS NULL
        AND (cardinality(profil_typ) = 0 OR profil_typ @> ARRAY[${param(property.type, '"PropertyType"')}])
        AND (${branches.map((b) => b.where).join(' OR ')})
    ) AS scored
    ORDER BY points DESC, id ASC
    LIMIT ${param(limit, 'int')} OFFSET ${param(offset, 'int')}`;
  return db.$queryRawUnsafe<{ id: string; points: number }[]>(sql, ...params);
}
