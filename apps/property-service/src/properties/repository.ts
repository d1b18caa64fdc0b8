import type { Db, Prisma } from '@platform/db';
import { notFound } from '@platform/http';
import { tenantRepository } from '@platform/resource';
import type { Columns } from './mapping.js';

export type PropertyRow = Prisma.PropertyGetPayload<object>;

const properties = tenantRepository<PropertyRow, Columns & { updated_at: Date }>({
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

/** Properties: the only place the properties table is queried or written. */
export const propertyRepository = {
  ...properties,

  /** What an appointment's calendar event names of its property (it exists). */
  calendarFields(db: Db, id: string): Promise<{ title: string; address_postal_code: string; address_city: string }> {
    return db.property.findUniqueOrThrow({
      where: { id },
      select: { title: true, address_postal_code: true, address_city: true },
    });
  },
};
