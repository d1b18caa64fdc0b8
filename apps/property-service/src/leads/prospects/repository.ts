import { tenantRepository } from '@platform/resource';
import { leadsError } from '../dialect.js';
import type { Columns, ProspectRow } from './mapping.js';

export const prospectNotFound = () => leadsError('prospect_not_found');

export const prospectRepository = tenantRepository<
  ProspectRow,
  Partial<Columns> & { updated_at: Date; last_activity_at?: Date; retention_until?: Date }
>({
  table: 'prospects',
  list: 'prospects',
  model: (db) => db.prospect,
  notFound: prospectNotFound,
});
