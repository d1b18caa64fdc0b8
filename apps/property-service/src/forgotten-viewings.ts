import type { Db } from '@platform/db';
import { appointmentRepository, endViewingsOfForgotten } from './appointments/index.js';

/**
 * Retention's `EndViewings` (the open viewings of forgotten prospects of one account are cancelled)
 * that also reports which it cancelled, one `prospect_id` each: the erasure audit counts them per
 * prospect. Here, above both folders, because leads do not import appointments (appointments
 * import leads).
 */
export async function endViewingsReporting(
  tx: Db,
  accountId: string,
  prospectIds: string[],
  how: 'expired' | 'erased',
  at: Date,
): Promise<{ prospect_id: string }[]> {
  if (prospectIds.length === 0) return [];
  const open = await appointmentRepository.open(tx, { account_id: accountId, prospect_id: { in: prospectIds } });
  await endViewingsOfForgotten(tx, accountId, prospectIds, how, at);
  return open.map(({ prospect_id }) => ({ prospect_id }));
}
