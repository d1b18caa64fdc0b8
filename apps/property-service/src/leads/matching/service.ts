import { toSeite, validationError } from '@platform/http';
import type { ApiContext } from '@platform/service';
import { propertyRepository } from '../../properties/index.js';
import { isReachableForOutreach } from '../consent/index.js';
import { leadsError } from '../dialect.js';
import { prospectRepository, prospectsByIds, toProspect } from '../prospects/index.js';
import { MARKETED, rankPropertiesInSql, rankProspectsInSql } from './matching-sql.js';
import { scoreInquiry } from './model.js';

export type MatchingService = ReturnType<typeof createMatchingService>;

/** Automatic matching in both directions, ranked by the inquiry scoring model, with the same explanation. */
export function createMatchingService({ db, cursors }: Pick<ApiContext, 'db' | 'cursors'>) {
  /** Both directions page by keyset: the cursor holds the rank (points or total) and the id of the last match. */
  function positionOf(cursor: string | undefined, scope: string): { rank: number; id: string } | undefined {
    if (!cursor) return undefined;
    const invalid = () => validationError([{ field: 'cursor', reason: 'invalid_format' }]);
    let position: unknown;
    try {
      position = JSON.parse(cursors.decode(cursor, scope).id);
    } catch (error) {
      if (error instanceof SyntaxError) throw invalid();
      throw error;
    }
    if (!Array.isArray(position) || !Number.isFinite(position[0]) || typeof position[1] !== 'string') throw invalid();
    return { rank: position[0] as number, id: position[1] as string };
  }
  function nextCursor(last: { rank: number; id: string } | undefined, more: boolean, scope: string): string | null {
    return more && last
      ? cursors.encode({ createdAt: new Date(0), id: JSON.stringify([last.rank, last.id]) }, scope)
      : null;
  }

  return {
    /**
     * Ranked in SQL (knockouts as indexed conditions, the model's points as an expression), so a
     * property is matched against any number of profiles without reading them; only the page
     * is read and scored exactly by the model.
     */
    async prospectsForProperty(accountId: string, propertyId: string, query: { limit: number; cursor?: string }) {
      const property = await propertyRepository.find(db, accountId, propertyId, () => leadsError('property_not_found'));
      const scope = `matches:property:${propertyId}`;
      const after = positionOf(query.cursor, scope);
      if (!(MARKETED as readonly string[]).includes(property.status))
        return toSeite({ data: [], page: { next_cursor: null, has_more: false } });
      const ranked = await rankProspectsInSql(
        db,
        property,
        query.limit + 1,
        after && { points: after.rank, id: after.id },
      );
      const rows = await prospectsByIds(
        db,
        accountId,
        ranked.map((r) => r.id),
      );
      const byId = new Map(rows.map((r) => [r.id, r]));
      const items = ranked.slice(0, query.limit).map((r) => {
        const prospect = byId.get(r.id)!;
        return { interessent: toProspect(prospect), bewertung: scoreInquiry({ property, prospect }) };
      });
      const more = ranked.length > query.limit;
      const last = ranked[query.limit - 1];
      return toSeite({
        data: items,
        page: { next_cursor: nextCursor(last && { rank: last.points, id: last.id }, more, scope), has_more: more },
      });
    },

    /**
     * The mirror: ranked in SQL by `rankPropertiesInSql` (the model's knockouts as conditions,
     * its points as the order), so only the page's properties are read and scored exactly by the
     * model. Only an active search profile of a prospect that may be reached for outreach
     * (`reachableForOutreach`: valid marketing consent, no restriction, no objection) has matches.
     */
    async propertiesForProspect(accountId: string, prospectId: string, query: { limit: number; cursor?: string }) {
      const prospect = await prospectRepository.find(db, accountId, prospectId);
      const scope = `matches:prospect:${prospectId}`;
      const after = positionOf(query.cursor, scope);
      if (!prospect.profile_active || !isReachableForOutreach(prospect))
        return toSeite({ data: [], page: { next_cursor: null, has_more: false } });
      const ranked = await rankPropertiesInSql(
        db,
        prospect,
        query.limit + 1,
        after && { gesamt: after.rank, id: after.id },
      );
      const pageIds = ranked.slice(0, query.limit).map((r) => r.id);
      // the properties resource has no read by ids yet: its model, through its repository
      const rows =
        pageIds.length > 0
          ? await propertyRepository
              .model(db)
              .findMany({ where: { id: { in: pageIds }, account_id: accountId }, orderBy: [], take: pageIds.length })
          : [];
      const byId = new Map(rows.map((r) => [r.id, r]));
      // in the ranking's order; a property deleted since the ranking is left out
      const items = pageIds.flatMap((id) => {
        const property = byId.get(id);
        return property
          ? [
              {
                immobilie_id: property.id,
                titel: property.title,
                status: property.status,
                bewertung: scoreInquiry({ property, prospect }),
              },
            ]
          : [];
      });
      const more = ranked.length > query.limit;
      const last = ranked[query.limit - 1];
      return toSeite({
        data: items,
        page: { next_cursor: nextCursor(last && { rank: last.gesamt, id: last.id }, more, scope), has_more: more },
      });
    },
  };
}
