import type { PrismaClient, PropertyStatus, PropertyType } from '@platform/db';
import { lockOwnRow, newId } from '@platform/db';
import { ApiError, NEWEST_FIRST, applyMergePatch, changedPaths, compileBodyValidator, cursorPage, notFound, type CursorCodec } from '@platform/http';
import { recordEvent } from '@platform/webhooks';
import { toColumns, toProperty } from './mapping.js';
import { PropertyInputSchema, type Property, type PropertyInput, type PropertyPatch } from './schemas.js';
import { PROPERTY_TRANSITIONS, canTransition, type PropertyAction } from './transitions.js';

export interface PropertyServiceDeps {
  db: PrismaClient;
  cursors: CursorCodec;
  now: () => Date;
}

export interface ListFilter {
  status?: PropertyStatus;
  type?: PropertyType;
  limit: number;
  cursor?: string;
}

const validateInput = compileBodyValidator<PropertyInput>(PropertyInputSchema);
const NOT_FOUND_MESSAGE = 'No property with this id.';

export type PropertyService = ReturnType<typeof createPropertyService>;

/** Property records of one account at a time; every query is scoped by `account_id`. */
export function createPropertyService({ db, cursors, now }: PropertyServiceDeps) {
  const emit = (tx: Pick<PrismaClient, 'outboxEvent'>, accountId: string, type: string, data: Record<string, unknown>, at: Date) =>
    recordEvent(tx, { accountId, service: 'property', type, data, now: at });

  async function find(accountId: string, id: string) {
    const row = await db.property.findFirst({ where: { id, account_id: accountId } });
    if (!row) throw notFound(NOT_FOUND_MESSAGE);
    return row;
  }

  return {
    async create(accountId: string, input: PropertyInput): Promise<Property> {
      const at = now();
      return db.$transaction(async (tx) => {
        const row = await tx.property.create({
          data: { id: newId('prop', at.getTime()), account_id: accountId, ...toColumns(input), created_at: at, updated_at: at },
        });
        await emit(tx, accountId, 'property.created', { property_id: row.id, status: row.status, type: row.type }, at);
        return toProperty(row);
      });
    },

    async get(accountId: string, id: string): Promise<Property> {
      return toProperty(await find(accountId, id));
    },

    list(accountId: string, filter: ListFilter) {
      return cursorPage({
        cursors,
        scope: `properties:${accountId}:${filter.status ?? ''}:${filter.type ?? ''}`,
        cursor: filter.cursor,
        limit: filter.limit,
        fetch: (after, take) =>
          db.property.findMany({ where: { account_id: accountId, status: filter.status, type: filter.type, ...after }, orderBy: NEWEST_FIRST, take }),
        map: toProperty,
      });
    },

    /**
     * Merge patch on the current input document, validated as a whole (so required fields
     * cannot be cleared), written under a row lock so concurrent patches do not lose fields.
     */
    async update(accountId: string, id: string, patch: PropertyPatch): Promise<Property> {
      return db.$transaction(async (tx) => {
        if (!(await lockOwnRow(tx, 'properties', id, accountId))) throw notFound(NOT_FOUND_MESSAGE);
        const row = await tx.property.findUniqueOrThrow({ where: { id } });
        if (row.status === 'archived') {
          throw new ApiError('conflict', { message: 'An archived property cannot be changed; restore it first.' });
        }
        const before = toProperty(row);
        const { id: _id, status: _s, media_count: _m, created_at: _c, updated_at: _u, ...current } = before;
        const input = applyMergePatch(current, patch, validateInput);
        const at = now();
        const after = toProperty({ ...row, ...(toColumns(input) as Partial<typeof row>) });
        const changed = changedPaths(before, after);
        if (changed.length === 0) return before; // nothing to write, nothing to announce
        const updated = await tx.property.update({ where: { id }, data: { ...toColumns(input), updated_at: at } });
        await emit(tx, accountId, 'property.updated', { property_id: id, changed_fields: changed }, at);
        return toProperty(updated);
      });
    },

    /** Applies a status action of the transition table; an illegal one is 409 `invalid_transition`. */
    async transition(accountId: string, id: string, action: PropertyAction): Promise<Property> {
      const { from, to } = PROPERTY_TRANSITIONS[action];
      const at = now();
      return db.$transaction(async (tx) => {
        const result = await tx.property.updateMany({
          where: { id, account_id: accountId, status: { in: [...from] } },
          data: { status: to, updated_at: at },
        });
        const row = await tx.property.findFirst({ where: { id, account_id: accountId } });
        if (!row) throw notFound(NOT_FOUND_MESSAGE);
        if (result.count === 0 && !canTransition(action, row.status)) {
          throw new ApiError('invalid_transition', {
            message: `Cannot ${action.replace('-', ' ')} a property in status ${row.status}; allowed from: ${from.join(', ')}.`,
            details: [{ field: 'status', reason: 'not_allowed' }],
          });
        }
        if (result.count === 1) {
          if (to === 'archived') await emit(tx, accountId, 'property.archived', { property_id: id, status: 'archived' }, at);
          else await emit(tx, accountId, 'property.updated', { property_id: id, changed_fields: ['status'] }, at);
        }
        return toProperty(row);
      });
    },
  };
}
