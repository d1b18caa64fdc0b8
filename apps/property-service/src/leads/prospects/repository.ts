import { ApiError } from '@platform/http';
import { tenantRepository } from '@platform/resource';
import type { Columns, ProspectRow } from './mapping.js';

export const prospectNotFound = () =>
  new ApiError('not_found', { message: 'No prospect with this id.', messageDe: 'Kein Interessent mit dieser ID.' });

export const prospectRepository = tenantRepository<
  ProspectRow,
  Partial<Columns> & { updated_at: Date; last_activity_at?: Date; retention_until?: Date }
>({
  table: 'prospects',
  list: 'prospects',
  model: (db) => db.prospect,
  notFound: prospectNotFound,
});
