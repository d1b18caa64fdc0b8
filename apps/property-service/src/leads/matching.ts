import type { Prisma, PrismaClient } from '@platform/db';
import { ApiError, type CursorCodec, toSeite, validationError } from '@platform/http';
import { scoreInquiry, type Bewertung } from './inquiry-scoring.js';
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
 * The inquiry model (`inquiry-scoring.ts`) in SQL: the knockouts as WHERE conditions and the
 * weighted points (Preis 40, Lage 25, Zimmer 20, Wohnfläche 15, same tolerances) as the ORDER BY.
 * A test keeps this in step with the model.
 */
export async function rankProspectsInSql(db: PrismaClient, property: PropertyRow, limit: number, offset: number): Promise<{ id: string; points: number }[]> {
  const { purchase_price_eur: purchase, cold_rent_eur: rent, rooms, living_area_sqm: area } = property;
  return db.$queryRaw<{ id: string; points: number }[]>`
    SELECT id, points FROM (
      SELECT id,
        40 * (CASE
          WHEN budget IS NULL THEN 1
          WHEN price <= budget THEN 1
          ELSE GREATEST(0, 1 - (price - budget) / (budget * 0.2)) END)
      + 25 * (CASE
          WHEN cardinality(profil_orte) = 0 THEN 1
          WHEN EXISTS (SELECT 1 FROM unnest(profil_orte) AS o WHERE lower(trim(o)) = lower(${property.address_city}) OR ${property.address_postal_code} LIKE trim(o) || '%') THEN 1
          ELSE 0 END)
      + 20 * (CASE
          WHEN profil_zimmer_min IS NULL THEN 1
          WHEN ${rooms}::float8 IS NULL THEN 0.5
          WHEN ${rooms}::float8 >= profil_zimmer_min THEN 1
          ELSE GREATEST(0, 1 - (profil_zimmer_min - ${rooms}::float8) / (profil_zimmer_min * 0.5)) END)
      + 15 * (CASE
          WHEN profil_wohnflaeche_min IS NULL THEN 1
          WHEN ${area}::float8 IS NULL THEN 0.5
          WHEN ${area}::float8 >= profil_wohnflaeche_min THEN 1
          ELSE GREATEST(0, 1 - (profil_wohnflaeche_min - ${area}::float8) / (profil_wohnflaeche_min * 0.3)) END) AS points
      FROM (
        SELECT id, profil_orte, profil_zimmer_min, profil_wohnflaeche_min,
          (CASE WHEN profil_vermarktung = 'miete' THEN ${rent}::float8 ELSE ${purchase}::float8 END) AS price,
          (CASE WHEN profil_vermarktung = 'miete' THEN profil_kaltmiete_max ELSE profil_kaufpreis_max END)::float8 AS budget
        FROM prospects
        WHERE account_id = ${property.account_id} AND profil_aktiv AND anonymised_at IS NULL
          AND (cardinality(profil_typ) = 0 OR profil_typ @> ARRAY[${property.type}]::"PropertyType"[])
          AND ((profil_vermarktung = 'kauf' AND ${purchase}::int IS NOT NULL AND (profil_kaufpreis_max IS NULL OR profil_kaufpreis_max * 1.2 >= ${purchase}::int))
            OR (profil_vermarktung = 'miete' AND ${rent}::int IS NOT NULL AND (profil_kaltmiete_max IS NULL OR profil_kaltmiete_max * 1.2 >= ${rent}::int)))
      ) AS candidates
    ) AS scored
    ORDER BY points DESC, id ASC
    LIMIT ${limit} OFFSET ${offset}`;
}
