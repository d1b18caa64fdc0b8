import type { PrismaClient } from './client.js';

/** Tables of tenant-owned rows that services lock before a read-check-write. */
export type TenantTable = 'properties' | 'prospects' | 'inquiries' | 'agent_deployments' | 'capability_profiles' | 'access_requests';

/**
 * Locks the account's row with this id until the transaction ends (`update`: for a change of the
 * row; `share`: so that nobody changes it while it is referenced). False when the account has no
 * such row, which callers answer like a missing record.
 */
export async function lockOwnRow(
  tx: Pick<PrismaClient, '$queryRawUnsafe'>,
  table: TenantTable,
  id: string,
  accountId: string,
  mode: 'update' | 'share' = 'update',
): Promise<boolean> {
  const rows = await tx.$queryRawUnsafe<unknown[]>(`SELECT 1 FROM "${table}" WHERE id = $1 AND account_id = $2 FOR ${mode === 'share' ? 'SHARE' : 'UPDATE'}`, id, accountId);
  return rows.length > 0;
}
