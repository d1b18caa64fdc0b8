import { accountDefaultCountry } from '@platform/accounts';
import {
  inDirectTransaction,
  inTransaction,
  newId,
  type Db,
  type PropertyStatus,
  type PropertyType,
  type SqlRunner,
} from '@platform/db';
import { ApiError, compileBodyValidator } from '@platform/http';
import { definePatch } from '@platform/resource';
import type { ApiContext } from '@platform/service';
import type { PropertyEvents } from '../events.js';
import type { InvoiceRecipients } from '../invoices/index.js';
import { assertCommissionAllowed, commissionTermsOf } from '../commission/index.js';
import { toColumns, toProperty } from './mapping.js';
import {
  givenTransaction,
  TRANSACTION_ACTIONS,
  transactionColumns,
  type TransactionGiven,
} from './transaction-given.js';
import { offerChangeOfPatch, offerChangeOfStatus, type OfferImproved } from './offer-change.js';
import { propertyRepository, type PropertyRow } from './repository.js';
import {
  PropertyInputSchema,
  READ_ONLY_FIELDS,
  type Property,
  type PropertyInput,
  type PropertyPatch,
} from './schemas.js';
import { transitionProperty, type PropertyAction } from './transitions.js';

export type PropertyServiceDeps = Pick<ApiContext<PropertyEvents>, 'db' | 'cursors' | 'now' | 'emit'> & {
  /** In the transaction of a status change, after `mark-sold`/`mark-rented` recorded the transaction: what else it ends or creates (listings off their channels, viewings cancelled, the commission settled); throwing rolls the change back. */
  onStatusChanged?: (tx: Db, change: StatusChange) => Promise<AfterCommit | void>;
  /** In the transaction of a change that offers the property anew (see `offer-change.ts`); for outreach. */
  onOfferImproved?: (tx: SqlRunner, change: OfferImproved) => Promise<AfterCommit | void>;
};

export interface ListFilter {
  status?: PropertyStatus;
  type?: PropertyType;
  limit: number;
  cursor?: string;
}

/** A status change, as the `onStatusChanged` hook sees it inside its transaction. */
export interface StatusChange {
  accountId: string;
  propertyId: string;
  to: PropertyStatus;
  at: Date;
  invoiceRecipients?: InvoiceRecipients;
}

/** Work a hook leaves until the transaction has committed (enqueueing jobs); it must not throw. */
export type AfterCommit = () => Promise<void>;

/** The fields that decide whether commission terms are allowed: the terms, the type, and the prices (sale or letting). */
const COMMISSION_INPUTS = ['commission', 'type', 'purchase_price_eur', 'cold_rent_eur'];

const validateInput = compileBodyValidator<PropertyInput>(PropertyInputSchema);

/** The patch of an account's property: a country cleared falls back to the account's default. */
const patchProperty = (defaultCountry: string) =>
  definePatch(propertyRepository, {
    readOnly: READ_ONLY_FIELDS,
    validate: validateInput,
    toView: toProperty,
    toColumns: (input: PropertyInput) => toColumns(input, defaultCountry),
  });

/** A new `street` without `house_number` is split again: the number stored for the old street must not stick. */
function resplitStreet(patch: PropertyPatch): PropertyPatch {
  const address = patch.address;
  if (!address || typeof address !== 'object' || address.street === undefined || 'house_number' in address)
    return patch;
  return { ...patch, address: { ...address, house_number: null } };
}

/** The country of a property whose address names none (the operator sets it per account; `US` otherwise). */
async function defaultCountryOf(db: Db, accountId: string): Promise<string> {
  return (await accountDefaultCountry(db, accountId)) ?? 'US';
}

export type { TransactionGiven };

export type PropertyService = ReturnType<typeof createPropertyService>;

/** Property records of one account at a time; every query is scoped by `account_id`. */
export function createPropertyService({
  db,
  cursors,
  now,
  emit,
  onStatusChanged,
  onOfferImproved,
}: PropertyServiceDeps) {
  return {
    async create(accountId: string, input: PropertyInput): Promise<Property> {
      const at = now();
      if (input.commission) assertCommissionAllowed(input, input.commission);
      const country = input.address.country ?? (await defaultCountryOf(db, accountId));
      return inTransaction(db, async (tx) => {
        const row = await propertyRepository.insert(tx, {
          id: newId('prop', at.getTime()),
          account_id: accountId,
          ...toColumns(input, country),
          created_at: at,
          updated_at: at,
        });
        await emit(tx, {
          accountId,
          type: 'property.created',
          data: { property_id: row.id, status: row.status, type: row.type },
          at,
        });
        return toProperty(row);
      });
    },

    async get(accountId: string, id: string): Promise<Property> {
      return toProperty(await propertyRepository.find(db, accountId, id));
    },

    list(accountId: string, { status, type, limit, cursor }: ListFilter) {
      return propertyRepository.page(db, accountId, {
        cursors,
        cursor,
        limit,
        filters: { status, type },
        map: toProperty,
      });
    },

    /** Merge patch, validated as a whole, under a row lock; an archived property cannot be changed. */
    async update(accountId: string, id: string, patch: PropertyPatch): Promise<Property> {
      // A stored property always has a country: only a patch that clears it needs the account's default.
      const country = patch.address?.country === null ? await defaultCountryOf(db, accountId) : 'US';
      let previous: PropertyRow | undefined;
      const after: { offered?: AfterCommit } = {};
      const property = await inDirectTransaction(db, (tx) =>
        patchProperty(country)(tx, {
          accountId,
          id,
          patch: resplitStreet(patch),
          now,
          guard: (row) => {
            if (row.status === 'archived')
              throw new ApiError('conflict', { message: 'An archived property cannot be changed; restore it first.' });
          },
          beforeWrite: async (_changed, row) => {
            previous = row;
          },
          afterWrite: async (changed, row, at) => {
            // Terms are checked when they (or what decides their rules) change; a refusal rolls the write back.
            if (
              changed.some((field) =>
                COMMISSION_INPUTS.some((input) => field === input || field.startsWith(`${input}.`)),
              )
            )
              assertCommissionAllowed(row, commissionTermsOf(row));
            const kind = previous && offerChangeOfPatch(previous, row);
            if (kind)
              after.offered = (await onOfferImproved?.(tx, { accountId, propertyId: id, kind, at })) ?? undefined;
            return emit(tx, {
              accountId,
              type: 'property.updated',
              data: { property_id: id, changed_fields: changed },
              at,
            });
          },
        }),
      );
      await after.offered?.();
      return property;
    },

    /**
     * Applies a status action of the transition table; an illegal one is 409 `invalid_transition`.
     * `mark-sold` / `mark-rented` record the transaction in the same database transaction: the given
     * price and day, or the asking price and today (the app clock, UTC) marked as assumed.
     */
    async transition(
      accountId: string,
      id: string,
      action: PropertyAction,
      given?: TransactionGiven | null,
    ): Promise<Property> {
      const at = now();
      const today = at.toISOString().slice(0, 10);
      const recording = TRANSACTION_ACTIONS[action];
      const checked = recording ? givenTransaction(recording.field, given, today) : null;
      const after: { commit?: AfterCommit; offered?: AfterCommit } = {};
      const property = await inTransaction(db, async (tx) => {
        let recorded: PropertyRow | undefined;
        const row = await transitionProperty(tx, {
          action,
          accountId,
          id,
          at,
          onChanged: async (changedRow, to) => {
            if (recording)
              recorded = await propertyRepository.recordTransaction(
                tx,
                id,
                transactionColumns(changedRow, recording.asking, checked, today),
              );
            after.commit =
              (await onStatusChanged?.(tx, {
                accountId,
                propertyId: id,
                to,
                at,
                invoiceRecipients: given?.invoice_recipients,
              })) ?? undefined;
            const kind = offerChangeOfStatus(to);
            if (kind)
              after.offered = (await onOfferImproved?.(tx, { accountId, propertyId: id, kind, at })) ?? undefined;
            const changed_fields = recorded ? ['status', 'transaction'] : ['status'];
            if (to !== 'archived')
              return emit(tx, { accountId, type: 'property.updated', data: { property_id: id, changed_fields }, at });
            await emit(tx, { accountId, type: 'property.archived', data: { property_id: id, status: 'archived' }, at });
          },
        });
        return toProperty(recorded ?? row);
      });
      await after.commit?.();
      await after.offered?.();
      return property;
    },
  };
}
