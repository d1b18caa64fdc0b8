import {
  auditedErasure,
  createErasureJournal,
  endViewingsReporting,
  eraseProspect,
  reapplyErasures,
} from '@platform/property-service';
import { NotFoundError, UsageError, type CommandContext } from './commands.js';

/** The journal the services keep (ERASURE_JOURNAL_DIR); a context without one cannot touch erasures. */
function journalOf(ctx: CommandContext) {
  if (!ctx.erasureJournalDir) throw new UsageError('ERASURE_JOURNAL_DIR is not known to this command.'); // tests' contexts have none
  return createErasureJournal(ctx.erasureJournalDir);
}

/**
 * `erasures reapply`: after a database restore, applies again every erasure of the journal
 * (ERASURE_JOURNAL_DIR, as the services read it) whose prospect still holds personal data, then
 * anonymises the prospects whose retention date has passed. Idempotent; the services start again afterwards.
 */
export async function reapplyErasuresCommand(ctx: CommandContext, argument: string | undefined) {
  // The journal was once named by DATA_DIR here: a directory given now would be silently ignored.
  if (argument !== undefined)
    throw new UsageError('erasures reapply takes no argument: it reads ERASURE_JOURNAL_DIR, as the services do.');
  const now = ctx.now?.() ?? new Date();
  return reapplyErasures(ctx.db, journalOf(ctx), endViewingsReporting, now);
}

/**
 * `prospect erase <prospectId> --account <accountId>`: an erasure the operator was asked for
 * (by letter, by phone): the same erasure as the API's `loeschung`, recorded as requested by `cli`
 * and journaled. Repeating it is harmless.
 */
export async function eraseProspectCommand(ctx: CommandContext, prospectId: string | undefined, account?: string) {
  if (!prospectId)
    throw new UsageError('Name the prospect: pnpm cli prospect erase <prospectId> --account <accountId>.');
  if (!account) throw new UsageError('--account is required.');
  const at = ctx.now?.() ?? new Date();
  const erasedAt = await auditedErasure(
    { db: ctx.db, endViewings: endViewingsReporting, journal: journalOf(ctx) },
    { accountId: account, requester: { by: 'cli' } },
    (audited) => eraseProspect(ctx.db, account, prospectId, at, audited),
  );
  // Another account's prospect is answered exactly like a missing one.
  if (!erasedAt) throw new NotFoundError(`No prospect ${prospectId} in account ${account}.`);
  return { id: prospectId, account_id: account, erased_at: erasedAt.toISOString() };
}
