import type { Prisma, PrismaClient } from '@platform/db';
import { lockOwnRow, newId } from '@platform/db';
import { ApiError, type ScoredCursorCodec, afterScored, toPage, toSeite, validationError } from '@platform/http';
import { recordEvent } from '@platform/webhooks';
import { scoreInquiry, type Bewertung } from './inquiry-scoring.js';
import type { Anfrage, AnfrageAnlegen } from './inquiry-schemas.js';
import { toColumns } from './prospect-mapping.js';
import { prospectNotFound, retentionUntil } from './prospect-service.js';

export interface InquiryServiceDeps {
  db: PrismaClient;
  cursors: ScoredCursorCodec;
  now: () => Date;
  retentionDays: number;
}

type InquiryRow = Prisma.InquiryGetPayload<object>;

function toAnfrage(row: InquiryRow): Anfrage {
  return {
    id: row.id,
    immobilie_id: row.property_id,
    interessent_id: row.prospect_id,
    nachricht: row.nachricht,
    bewertung: row.score_details as unknown as Bewertung,
    bewertet_am: row.scored_at.toISOString(),
    eingegangen_am: row.created_at.toISOString(),
  };
}

/** The stored score of an inquiry: total and weights version for ordering, the whole explanation, and when. */
const scoreColumns = (bewertung: Bewertung, at: Date) => ({
  score: bewertung.gesamt,
  weights_version: bewertung.gewichtungsversion,
  score_details: bewertung as unknown as Prisma.InputJsonValue,
  scored_at: at,
});

const inquiryNotFound = () => new ApiError('not_found', { message: 'No inquiry with this id.', messageDe: 'Keine Anfrage mit dieser ID.' });

export type InquiryService = ReturnType<typeof createInquiryService>;

/** Inquiries: scored on arrival against the prospect's search profile and the property. */
export function createInquiryService({ db, cursors, now, retentionDays }: InquiryServiceDeps) {
  return {
    async create(accountId: string, body: AnfrageAnlegen): Promise<Anfrage> {
      if (body.interessent_id === undefined && body.interessent === undefined) throw validationError([{ field: 'interessent_id', reason: 'missing' }]);
      if (body.interessent_id !== undefined && body.interessent !== undefined) throw validationError([{ field: 'interessent', reason: 'not_allowed' }]);
      const at = now();
      return db.$transaction(async (tx) => {
        const property = await tx.property.findFirst({ where: { id: body.immobilie_id, account_id: accountId } });
        if (!property) throw new ApiError('not_found', { message: 'No property with the immobilie_id.', messageDe: 'Keine Immobilie mit dieser immobilie_id.' });
        // An inquiry is activity: the retention period starts again.
        const activity = { last_activity_at: at, retention_until: retentionUntil(at, retentionDays), updated_at: at };
        let prospect;
        if (body.interessent) {
          prospect = await tx.prospect.create({
            data: { id: newId('int', at.getTime()), account_id: accountId, ...toColumns(body.interessent), ...activity, created_at: at },
          });
        } else {
          // FOR UPDATE: an erasure or anonymisation running now finishes first (and is then seen),
          // or waits for this inquiry (and then removes its message too).
          if (!(await lockOwnRow(tx, 'prospects', body.interessent_id!, accountId))) throw prospectNotFound();
          const existing = await tx.prospect.findUniqueOrThrow({ where: { id: body.interessent_id } });
          if (existing.anonymised_at) throw new ApiError('conflict', { message: 'The prospect was anonymised.', messageDe: 'Der Interessent wurde anonymisiert.' });
          prospect = await tx.prospect.update({ where: { id: existing.id }, data: activity });
        }
        const bewertung = scoreInquiry({ property, prospect });
        const row = await tx.inquiry.create({
          data: {
            id: newId('anf', at.getTime()),
            account_id: accountId,
            property_id: property.id,
            prospect_id: prospect.id,
            nachricht: body.nachricht ?? null,
            ...scoreColumns(bewertung, at),
            created_at: at,
          },
        });
        const ids = { inquiry_id: row.id, property_id: property.id };
        await recordEvent(tx, { accountId, service: 'property', type: 'inquiry.received', data: { ...ids, interessent_id: prospect.id }, now: at });
        await recordEvent(tx, { accountId, service: 'property', type: 'inquiry.scored', data: { ...ids, score: row.score }, now: at });
        return toAnfrage(row);
      });
    },

    /**
     * Scores the inquiry again with the property and the search profile as they are now (after
     * a price change, say). Prospects that were anonymised keep their search profile, so they
     * can still be scored. Emits `inquiry.scored`.
     */
    async rescore(accountId: string, id: string): Promise<Anfrage> {
      return db.$transaction(async (tx) => {
        if (!(await lockOwnRow(tx, 'inquiries', id, accountId))) throw inquiryNotFound();
        const inquiry = await tx.inquiry.findUniqueOrThrow({ where: { id }, include: { property: true, prospect: true } });
        const at = now();
        const bewertung = scoreInquiry({ property: inquiry.property, prospect: inquiry.prospect });
        const row = await tx.inquiry.update({ where: { id }, data: scoreColumns(bewertung, at) });
        await recordEvent(tx, { accountId, service: 'property', type: 'inquiry.scored', data: { inquiry_id: id, property_id: row.property_id, score: row.score }, now: at });
        return toAnfrage(row);
      });
    },

    async get(accountId: string, id: string): Promise<Anfrage> {
      const row = await db.inquiry.findFirst({ where: { id, account_id: accountId } });
      if (!row) throw inquiryNotFound();
      return toAnfrage(row);
    },

    /** Best score first (then newest), optionally for one property. */
    async list(accountId: string, query: { limit: number; cursor?: string; immobilie_id?: string }) {
      const scope = `inquiries:${accountId}:${query.immobilie_id ?? ''}`;
      const position = query.cursor ? cursors.decode(query.cursor, scope) : undefined;
      const rows = await db.inquiry.findMany({
        where: { account_id: accountId, property_id: query.immobilie_id, ...afterScored(position) },
        orderBy: [{ score: 'desc' }, { created_at: 'desc' }, { id: 'desc' }],
        take: query.limit + 1,
      });
      const page = toPage(rows, query.limit, (p) => {
        const last = rows.find((r) => r.id === p.id)!;
        return cursors.encode({ score: last.score, createdAt: p.createdAt, id: p.id }, scope);
      });
      return toSeite({ data: page.items.map(toAnfrage), page: { next_cursor: page.nextCursor, has_more: page.hasMore } });
    },
  };
}
