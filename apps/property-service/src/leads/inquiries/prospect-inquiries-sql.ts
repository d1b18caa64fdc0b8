import type { Db } from '@platform/db';
import { toInquiry } from './mapping.js';
import type { Inquiry } from './schemas.js';

/** The account's prospect's inquiries as the API shows them (score and explanation), oldest first (for the Auskunft). */
export async function inquiriesOfProspect(db: Db, accountId: string, prospectId: string): Promise<Inquiry[]> {
  const rows = await db.inquiry.findMany({
    where: { account_id: accountId, prospect_id: prospectId },
    orderBy: [{ created_at: 'asc' }, { id: 'asc' }],
  });
  return rows.map(toInquiry);
}

export { InquirySchema, type Inquiry } from './schemas.js';
