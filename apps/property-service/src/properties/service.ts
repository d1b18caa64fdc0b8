import { inTransaction, newId, type Db, type PropertyStatus, type PropertyType } from '@platform/db';
import { ApiError, compileBodyValidator } from '@platform/http';
import { definePatch } from '@platform/resource';
import type { ApiContext } from '@platform/service';
import type { PropertyEvents } from '../events.js';
import { toColumns, toProperty } from './mapping.js';
import { propertyRepository } from './repository.js';
import { PropertyInputSchema, READ_ONLY_FIELDS, type Property, type PropertyInput, type PropertyPatch } from './schemas.js';
import { transitionProperty, type PropertyAction } from './transitions.js';

export type PropertyServiceDeps = Pick<ApiContext<PropertyEvents>, 'db' | 'cursors' | 'now' | 'emit'> & {
  /** In the transaction of a status change: what else it ends (listings off their channels, viewings cancelled). */
  onStatusChanged?: (tx: Db, accountId: string, propertyId: string, to: PropertyStatus, at: Date) => Promise<void>;
};

export interface ListFilter {
  status?: PropertyStatus;
  type?: PropertyType;
  limit: number;
  cursor?: string;
}

const patchProperty = definePatch(propertyRepository, {
  readOnly: READ_ONLY_FIELDS,
  validate: compileBodyValidator<PropertyInput>(PropertyInputSchema),
  toView: toProperty,
  toColumns,
});

export type PropertyService = ReturnType<typeof createPropertyService>;

/** Property records of one account at a time; every query is scoped by `account_id`. */
export function createPropertyService({ db, cursors, now, emit, onStatusChanged }: PropertyServiceDeps) {
  return {
    create(accountId: string, input: PropertyInput): Promise<Property> {
      const at = now();
      return inTransaction(db, async (tx) => {
        const row = await tx.property.create({
          data: { id: newId('prop', at.getTime()), account_id: accountId, ...toColumns(input), created_at: at, updated_at: at },
        });
        await emit(tx, { accountId, type: 'property.created', data: { property_id: row.id, status: row.status, type: row.type }, at });
        return toProperty(row);
      });
    },

    async get(accountId: string, id: string): Promise<Property> {
      return toProperty(await propertyRepository.find(db, accountId, id));
    },

    list(accountId: string, { status, type, limit, cursor }: ListFilter) {
      return propertyRepository.page(db, accountId, { cursors, cursor, limit, filters: { status, type }, map: toProperty });
    },

    /** Merge patch, validated as a whole, under a row lock; an archived property cannot be changed. */
    update(accountId: string, id: string, patch: PropertyPatch): Promise<Property> {
      return inTransaction(db, (tx) =>
        patchProperty(tx, {
          accountId,
          id,
          patch,
          now,
          guard: (row) => {
            if (row.status === 'archived') throw new ApiError('conflict', { message: 'An archived property cannot be changed; restore it first.' });
          },
          afterWrite: (changed, _row, at) => emit(tx, { accountId, type: 'property.updated', data: { property_id: id, changed_fields: changed }, at }),
        }),
      );
    },

    /** Applies a status action of the transition table; an illegal one is 409 `invalid_transition`. */
    transition(accountId: string, id: string, action: PropertyAction): Promise<Property> {
      const at = now();
      return inTransaction(db, async (tx) =>
        toProperty(
          await transitionProperty(tx, {
            action,
            accountId,
            id,
            at,
            onChanged: async (_row, to) => {
              await onStatusChanged?.(tx, accountId, id, to, at);
              if (to !== 'archived') return emit(tx, { accountId, type: 'property.updated', data: { property_id: id, changed_fields: ['status'] }, at });
              await emit(tx, { accountId, type: 'property.archived', data: { property_id: id, status: 'archived' }, at });
            },
          }),
        ),
      );
    },
  };
}
