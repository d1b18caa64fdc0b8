import type { Prisma, PrismaClient } from '@platform/db';
import { ApiError, type CursorCodec, toSeite, validationError } from '@platform/http';
import { scoreInquiry, type Bewertung } from './inquiry-scoring.js';
import { toInteressent } from './prospect-mapping.js';
import { prospectNotFound } from './prospect-service.js';

const MARKETED = ['active', 'reserved'] as const;
const PRICE_KNOCKOUT = 1.2; // the scoring model's knockout: price more than 20 % above budget

type PropertyRow = Prisma.PropertyGetPayload<object>;
type ProspectRow = Prisma.ProspectGetPayload<object>;

/**
 * The knockouts of the scoring model as SQL conditions on prospects, so that only profiles that
 * can match are read (GIN index on `profil_typ`, b-tree on account, activity and budget).
 */
function prospectCandidates(property: PropertyRow): Prisma.ProspectWhereInput {
  const offers: Prisma.ProspectWhereInput[] = [];
  if (property.purchase_price_eur !== null) {
    offers.push({ profil_vermarktung: 'kauf', OR: [{ profil_kaufpreis_max: null }, { profil_kaufpreis_max: { gte: Math.ceil(property.purchase_price_eur / PRICE_KNOCKOUT) } }] });
  }
  if (property.cold_rent_eur !== null) {
    offers.push({ profil_vermarktung: 'miete', OR: [{ profil_kaltmiete_max: null }, { profil_kaltmiete_max: { gte: Math.ceil(property.cold_rent_eur / PRICE_KNOCKOUT) } }] });
  }
  return {
    account_id: property.account_id,
    profil_aktiv: true,
    anonymised_at: null,
    AND: [{ OR: [{ profil_typ: { isEmpty: true } }, { profil_typ: { has: property.type } }] }, { OR: offers.length > 0 ? offers : [{ id: '' }] }],
  };
}

/** The same knockouts from the prospect's side, as SQL conditions on properties. */
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
    async prospectsForProperty(accountId: string, propertyId: string, query: { limit: number; cursor?: string }) {
      const property = await db.property.findFirst({ where: { id: propertyId, account_id: accountId } });
      if (!property) throw new ApiError('not_found', { message: 'No property with this id.', messageDe: 'Keine Immobilie mit dieser ID.' });
      const candidates = (MARKETED as readonly string[]).includes(property.status) ? await db.prospect.findMany({ where: prospectCandidates(property) }) : [];
      const ranked = rank(candidates.map((prospect) => ({ item: prospect, bewertung: scoreInquiry({ property, prospect }) })));
      return page(
        ranked.map((r) => ({ interessent: toInteressent(r.item), bewertung: r.bewertung })),
        `matches:property:${propertyId}`,
        query,
      );
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
