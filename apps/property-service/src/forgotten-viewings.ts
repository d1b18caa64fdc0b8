import type { Db } from '@platform/db';
import { appointmentRepository, endViewingsOfForgotten } from './appointments/index.js';
import { prospectsByIds } from './leads/prospects/index.js';

type OpenViewing = { account_id: string; prospect_id: string };

/** The viewings whose prospect is one of their own account's (retention's `EndViewings` passes ids only). */
async function ofOwnAccount<Row extends OpenViewing>(tx: Db, rows: Row[]): Promise<Row[]> {
  const idsByAccount = new Map<string, string[]>();
  for (const row of rows)
    idsByAccount.set(row.account_id, [...(idsByAccount.get(row.account_id) ?? []), row.prospect_id]);
  const own = new Set<string>();
  for (const [accountId, ids] of idsByAccount)
    for (const prospect of await prospectsByIds(tx, accountId, ids)) own.add(`${accountId}:${prospect.id}`);
  return rows.filter((row) => own.has(`${row.account_id}:${row.prospect_id}`));
}

/**
 * Retention's `EndViewings` (the open viewings of forgotten prospects are cancelled) that also
 * reports which it cancelled, one `prospect_id` each: the erasure audit counts them per prospect.
 * A viewing counts only within its prospect's own account: another account's row naming the same
 * id is never reported. Here, above both folders, because leads do not import appointments
 * (appointments import leads).
 */
export async function endViewingsReporting(
  tx: Db,
  prospectIds: string[],
  how: 'expired' | 'erased',
  at: Date,
): Promise<{ prospect_id: string }[]> {
  if (prospectIds.length === 0) return [];
  const open = await ofOwnAccount(tx, await appointmentRepository.open(tx, { prospect_id: { in: prospectIds } }));
  await endViewingsOfForgotten(tx, prospectIds, how, at);
  return open.map(({ prospect_id }) => ({ prospect_id }));
}
