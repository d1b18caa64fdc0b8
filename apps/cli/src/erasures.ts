import { endViewingsReporting, erasureJournalOf, reapplyErasures } from '@platform/property-service';
import { UsageError, type CommandContext } from './commands.js';

/**
 * `erasures reapply [<DATA_DIR>]`: after a database restore, applies again every erasure of the
 * journal (DATA_DIR/erasure-journal) whose prospect still holds personal data, then anonymises the
 * prospects whose retention date has passed. Idempotent; the services start again afterwards.
 */
export async function reapplyErasuresCommand(ctx: CommandContext, dataDir: string | undefined) {
  const directory = dataDir ?? ctx.dataDir;
  if (!directory) throw new UsageError('Name the DATA_DIR of the services: pnpm cli erasures reapply <DATA_DIR>.'); // tests' contexts have none
  const now = ctx.now?.() ?? new Date();
  return reapplyErasures(ctx.db, erasureJournalOf(directory), endViewingsReporting, now);
}
