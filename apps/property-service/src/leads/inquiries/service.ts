import { inTransaction, newId, type Db } from '@platform/db';
import { toSeite, validationError } from '@platform/http';
import { rescoreUnderLock, scoreColumns, scoredPage } from '@platform/resource';
import type { ApiContext } from '@platform/service';
import type { PropertyEvents } from '../../events.js';
import { propertyRepository } from '../../properties/index.js';
import { leadsError } from '../dialect.js';
import { scoreInquiry } from '../matching/index.js';
import { prospectForInquiry } from '../prospects/index.js';
import { INQUIRY_SCORE, inquiryRepository, inquiryWithProspect, insertInquiry } from './repository.js';
import { toInquiry } from './mapping.js';
import type { Inquiry, InquiryInput } from './schemas.js';

export interface InquiryServiceDeps extends Pick<ApiContext<PropertyEvents>, 'db' | 'scoredCursors' | 'now' | 'emit'> {
  retentionDays: number;
}

export type InquiryService = ReturnType<typeof createInquiryService>;

/** The inquiry with what it is scored on: its prospect, and its property (asked of properties). */
async function withSubject(tx: Db, id: string) {
  const { prospect, ...inquiry } = await inquiryWithProspect(tx, id);
  return { ...inquiry, prospect, property: await propertyRepository.get(tx, inquiry.property_id) };
}

/** Inquiries: scored on arrival against the prospect's search profile and the property. */
export function createInquiryService({ db, scoredCursors, now, emit, retentionDays }: InquiryServiceDeps) {
  return {
    /** `source`: where it came from when not through the API (a portal's name). */
    create(accountId: string, body: InquiryInput, source: string | null = null): Promise<Inquiry> {
      if (body.interessent_id === undefined && body.interessent === undefined)
        throw validationError([{ field: 'interessent_id', reason: 'missing' }]);
      if (body.interessent_id !== undefined && body.interessent !== undefined)
        throw validationError([{ field: 'interessent', reason: 'not_allowed' }]);
      const at = now();
      return inTransaction(db, async (tx) => {
        const property = await propertyRepository.find(tx, accountId, body.immobilie_id, () =>
          leadsError('inquiry_property_not_found'),
        );
        const prospect = await prospectForInquiry(tx, {
          accountId,
          existingId: body.interessent_id,
          input: body.interessent,
          at,
          retentionDays,
        });
        const row = await insertInquiry(tx, {
          id: newId('anf', at.getTime()),
          account_id: accountId,
          property_id: property.id,
          prospect_id: prospect.id,
          message: body.nachricht ?? null,
          source,
          ...scoreColumns(scoreInquiry({ property, prospect }), INQUIRY_SCORE, at),
          created_at: at,
        });
        const ids = { inquiry_id: row.id, property_id: property.id };
        await emit(tx, { accountId, type: 'inquiry.received', data: { ...ids, interessent_id: prospect.id }, at });
        await emit(tx, { accountId, type: 'inquiry.scored', data: { ...ids, score: row.score }, at });
        return toInquiry(row);
      });
    },

    /**
     * Scores the inquiry again with the property and the search profile as they are now (after
     * a price change, say). Prospects that were anonymised keep their search profile, so they
     * can still be scored. Emits `inquiry.scored`.
     */
    rescore(accountId: string, id: string): Promise<Inquiry> {
      const at = now();
      return inTransaction(db, async (tx) =>
        toInquiry(
          await rescoreUnderLock(tx, inquiryRepository, {
            accountId,
            id,
            load: withSubject,
            explain: ({ property, prospect }) => scoreInquiry({ property, prospect }),
            reading: INQUIRY_SCORE,
            at,
            announce: (row) =>
              emit(tx, {
                accountId,
                type: 'inquiry.scored',
                data: { inquiry_id: id, property_id: row.property_id, score: row.score },
                at,
              }),
          }),
        ),
      );
    },

    async get(accountId: string, id: string): Promise<Inquiry> {
      return toInquiry(await inquiryRepository.find(db, accountId, id));
    },

    /** Best score first (then newest), optionally for one property. */
    async list(
      accountId: string,
      { immobilie_id, limit, cursor }: { limit: number; cursor?: string; immobilie_id?: string },
    ) {
      return toSeite(
        await scoredPage(db, inquiryRepository, accountId, {
          cursors: scoredCursors,
          cursor,
          limit,
          filters: { property_id: immobilie_id },
          map: toInquiry,
        }),
      );
    },
  };
}
