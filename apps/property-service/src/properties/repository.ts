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
});
