import type { Db, Prisma } from '@platform/db';
import { tenantRepository, type ScoreColumns, type ScoreReading } from '@platform/resource';
import { leadsError } from '../dialect.js';
import type { InquiryScore } from '../matching/index.js';

export type InquiryRow = Prisma.InquiryGetPayload<object>;

export const inquiryRepository = tenantRepository<InquiryRow, ScoreColumns>({
  table: 'inquiries',
  list: 'inquiries',
  model: (db) => db.inquiry,
  notFound: () => leadsError('inquiry_not_found'),
});

/** A new inquiry. */
export function insertInquiry(tx: Db, data: Prisma.InquiryUncheckedCreateInput): Promise<InquiryRow> {
  return tx.inquiry.create({ data });
}

/** An inquiry already found in the caller's account, with its prospect. */
export function inquiryWithProspect(tx: Db, id: string) {
  return tx.inquiry.findUniqueOrThrow({ where: { id }, include: { prospect: true } });
}

/** Where the stored total and weights version come from in the German explanation. */
export const INQUIRY_SCORE: ScoreReading<InquiryScore> = {
  total: (s) => s.gesamt,
  version: (s) => s.gewichtungsversion,
};
