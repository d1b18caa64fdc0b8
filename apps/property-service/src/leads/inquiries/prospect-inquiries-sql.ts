import type { Db } from '@platform/db';
import type { InquiryScore } from '../matching/index.js';
import type { Inquiry } from './schemas.js';

/** The account's prospect's inquiries as the API shows them (score and explanation), oldest first (for the Auskunft). */
export async function inquiriesOfProspect(db: Db, accountId: string, prospectId: string): Promise<Inquiry[]> {
  const rows = await db.inquiry.findMany({
    where: { account_id: accountId, prospect_id: prospectId },
    orderBy: [{ created_at: 'asc' }, { id: 'asc' }],
  });
  return rows.map((row) => ({
    id: row.id,
    immobilie_id: row.property_id,
    interessent_id: row.prospect_id,
    nachricht: row.message,
    bewertung: row.score_details as unknown as InquiryScore,
    bewertet_am: row.scored_at.toISOString(),
    eingegangen_am: row.created_at.toISOString(),
  }));
}

export { InquirySchema, type Inquiry } from './schemas.js';
