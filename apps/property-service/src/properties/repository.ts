import type { Prisma } from '@platform/db';
import { notFound } from '@platform/http';
import { tenantRepository } from '@platform/resource';
import type { Columns } from './mapping.js';

export type PropertyRow = Prisma.PropertyGetPayload<object>;

export const propertyRepository = tenantRepository<PropertyRow, Columns & { updated_at: Date }>({
  table: 'properties',
  list: 'properties',
  model: (db) => db.property,
  notFound: () => notFound('No property with this id.'),
  // The hottest reads of the service (bench/RESULTS.md); the database spells the class `A+`.
  directSql: {
    fromRow: (row) =>
      row.energy_efficiency_class === ('A+' as string) ? { ...row, energy_efficiency_class: 'A_PLUS' } : row,
    toDb: (columns) =>
      columns.energy_efficiency_class === 'A_PLUS' ? { ...columns, energy_efficiency_class: 'A+' } : columns,
  },
});
