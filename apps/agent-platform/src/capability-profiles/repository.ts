import { newId, type Db } from '@platform/db';
import { notFound } from '@platform/http';
import { tenantRepository } from '@platform/resource';
import { toColumns, type Columns, type CapabilityProfileRow } from './mapping.js';
import type { CapabilityProfileInput } from './schemas.js';

export const capabilityProfileRepository = tenantRepository<CapabilityProfileRow, Columns & { updated_at: Date }>({
  table: 'capability_profiles',
  list: 'capability-profiles',
  model: (db) => db.capabilityProfile,
  notFound: () => notFound('No capability profile with this id.'),
});

/** Stores a new profile (also inline, inside an access request's transaction). */
export function insertCapabilityProfile(
  db: Db,
  accountId: string,
  input: CapabilityProfileInput,
  at: Date,
): Promise<CapabilityProfileRow> {
  return db.capabilityProfile.create({
    data: {
      id: newId('cap', at.getTime()),
      account_id: accountId,
      ...toColumns(input),
      created_at: at,
      updated_at: at,
    },
  });
}
