import { inTransaction, type Db, type PrismaClient } from '@platform/db';
import { forgetStoredResponsesMentioning } from '@platform/service';
import { forgetOutreach } from '../outreach/index.js';

/**
 * Ends what a forgotten prospect still has running elsewhere (their open viewings), in the same
 * transaction: `expired` after the retention date, `erased` at their request. Passed in by the app
 * (appointments belong to inquiries, so leads do not import them).
 */
export type EndViewings = (
  tx: Db,
  accountId: string,
  prospectIds: string[],
  how: 'expired' | 'erased',
  at: Date,
) => Promise<unknown>;

/**
 * The personal columns of a prospect, and what is kept: the search-profile criteria and the
 * month (only) of creation, last activity and retention date, as statistics. The profile is no
 * longer active: nobody can be contacted about matches. The consent records (`prospect_consents`)
 * go with the personal columns: their history is kept as long as the person is, no longer; so do
 * the outreach announcements and counters (`forgetOutreach`).
 */
const ANONYMISE = `
  first_name = NULL, last_name = NULL, email = NULL, phone = NULL,
  consent_purpose = NULL, consent_given_at = NULL, marketing_consent_valid = false,
  restricted_at = NULL, objected_at = NULL,
  created_at = date_trunc('month', created_at), updated_at = date_trunc('month', created_at),
  last_activity_at = date_trunc('month', last_activity_at),
  retention_until = date_trunc('month', retention_until)::date,
  profile_active = false`;

/**
 * Anonymises every prospect whose retention date has passed (the date is the last day kept).
 * Set-based, in batches; running it again changes nothing. Returns how many were anonymised.
 */
export async function anonymiseExpired(
  db: Db,
  now: Date,
  endViewings: EndViewings,
  batchSize = 10_000,
): Promise<number> {
  const today = now.toISOString().slice(0, 10);
  let total = 0;
  for (;;) {
    const count = await inTransaction(db, async (tx) => {
      // `anonymised_at IS NULL` twice: a run that waited on rows another run was anonymising sees them
      // again after that one commits (PostgreSQL re-checks the UPDATE's own condition, not the
      // subquery's) and skips them, so overlapping runs anonymise and count each prospect once.
      const anonymised = await tx.$queryRawUnsafe<{ id: string; account_id: string }[]>(
        `UPDATE prospects SET ${ANONYMISE}, anonymised_at = $1
         WHERE id IN (SELECT id FROM prospects WHERE anonymised_at IS NULL AND retention_until < $2::date LIMIT $3)
           AND anonymised_at IS NULL
         RETURNING id, account_id`,
        now,
        today,
        batchSize,
      );
      // The inquiry messages are personal free text too, and the consent records personal data.
      // Separate statements, each with a snapshot of its own: an inquiry or a consent committed
      // while the UPDATE above waited on the prospect's row lock is seen and removed too.
      const ids = anonymised.map((row) => row.id);
      await tx.$executeRawUnsafe('UPDATE inquiries SET message = NULL WHERE prospect_id = ANY($1::text[])', ids);
      await tx.$executeRawUnsafe('DELETE FROM prospect_consents WHERE prospect_id = ANY($1::text[])', ids);
      // Which properties were announced to them, and their counters (ids only, but of a person now gone).
      await forgetOutreach(
        tx,
        anonymised.map((row) => ({ accountId: row.account_id, prospectId: row.id })),
      );
      // Nobody can be contacted about their viewings any more (account by account).
      const byAccount = new Map<string, string[]>();
      for (const row of anonymised) byAccount.set(row.account_id, [...(byAccount.get(row.account_id) ?? []), row.id]);
      for (const [accountId, prospectIds] of byAccount) await endViewings(tx, accountId, prospectIds, 'expired', now);
      return anonymised.length;
    });
    total += count;
    if (count < batchSize) return total;
  }
}

/**
 * Erases a prospect's personal data at once and for good (GDPR Art. 17). Returns the time of
 * erasure; erasing again returns the first time and changes nothing.
 */
export async function eraseProspect(
  db: Db,
  accountId: string,
  id: string,
  now: Date,
  endViewings: EndViewings,
): Promise<Date | null> {
  await inTransaction(db, async (tx) => {
    const erased = await tx.$executeRawUnsafe(
      `UPDATE prospects SET ${ANONYMISE}, anonymised_at = $1 WHERE id = $2 AND account_id = $3 AND anonymised_at IS NULL`,
      now,
      id,
      accountId,
    );
    await tx.$executeRawUnsafe(
      'UPDATE inquiries SET message = NULL WHERE prospect_id = $1 AND account_id = $2',
      id,
      accountId,
    );
    await tx.$executeRawUnsafe(
      'DELETE FROM prospect_consents WHERE prospect_id = $1 AND account_id = $2',
      id,
      accountId,
    );
    await forgetOutreach(tx, [{ accountId, prospectId: id }]);
    // The prospect asked to be forgotten: their open viewings are off (the rows keep ids and times only).
    if (erased === 1) await endViewings(tx, accountId, [id], 'erased', now);
    // Responses kept for Idempotency-Key replays (up to a day) would still show the erased data.
    await forgetStoredResponsesMentioning(tx, accountId, id);
  });
  const [row] = await db.$queryRawUnsafe<{ anonymised_at: Date | null }[]>(
    'SELECT anonymised_at FROM prospects WHERE id = $1 AND account_id = $2',
    id,
    accountId,
  );
  return row?.anonymised_at ?? null;
}

/**
 * Old row versions of anonymised and erased records become free space (reused, not zeroed; see
 * README "Erasure and storage"). Needs the client: VACUUM cannot run inside a transaction.
 */
export async function vacuumLeads(db: PrismaClient): Promise<void> {
  await db.$executeRawUnsafe('VACUUM prospects, inquiries, prospect_consents');
}
