import type { Db, Prisma } from '@platform/db';
import { notFound } from '@platform/http';
import { tenantRepository } from '@platform/resource';
import type { Columns } from './mapping.js';

export type PropertyRow = Prisma.PropertyGetPayload<object>;

/** The properties' Prisma model, for the kit's status changes (transitions.ts): queried by the kit, declared here. */
export const propertyModel = (db: Db) => db.property;

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

  insert(tx: Db, data: Prisma.PropertyUncheckedCreateInput): Promise<PropertyRow> {
    return tx.property.create({ data });
  },

  /** The property as it is now (it exists: read after a lock, in the same transaction). */
  get(db: Db, id: string): Promise<PropertyRow> {
    return db.property.findUniqueOrThrow({ where: { id } });
  },

  /** Records the columns of a sale or letting (the property's row is locked by its transition). */
  recordTransaction(tx: Db, id: string, data: Prisma.PropertyUncheckedUpdateInput): Promise<PropertyRow> {
    return tx.property.update({ where: { id }, data });
  },

  /** Counts media added (`delta` 1) or deleted (-1) on the property and marks it updated. */
  async countMedia(tx: Db, id: string, delta: number, at: Date): Promise<void> {
    await tx.property.update({ where: { id }, data: { media_count: { increment: delta }, updated_at: at } });
  },

  /** What an appointment's calendar event names of its property (it exists). */
  calendarFields(
    db: Db,
    id: string,
  ): Promise<{
    title: string;
    address_street: string | null;
    address_house_number: string | null;
    address_postal_code: string;
    address_city: string;
  }> {
    return db.property.findUniqueOrThrow({
      where: { id },
      select: {
        title: true,
        address_street: true,
        address_house_number: true,
        address_postal_code: true,
        address_city: true,
      },
    });
  },
};
