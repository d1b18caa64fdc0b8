import type { Db } from '@platform/db';
import { consentsOf } from './consent-sql.js';
import { toConsentRecord } from './mapping.js';
import type { ConsentRecord } from './schemas.js';

/** The account's prospect's consents as the API shows them, oldest first (for the Auskunft). */
export async function consentHistoryOf(db: Db, accountId: string, prospectId: string): Promise<ConsentRecord[]> {
  return (await consentsOf(db, accountId, prospectId)).map(toConsentRecord);
}

export { ConsentRecordSchema, type ConsentRecord } from './schemas.js';
