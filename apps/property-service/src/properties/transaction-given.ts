import { validationError, type ErrorDetail } from '@platform/http';
import type { InvoiceRecipients } from '../invoices/index.js';
import type { PropertyRow } from './repository.js';
import type { PropertyAction } from './transitions.js';

/** What `mark-sold` (`price_eur`) or `mark-rented` (`cold_rent_eur`) was given with `date` (both or neither), and the invoices' recipients. */
export interface TransactionGiven {
  price_eur?: number;
  cold_rent_eur?: number;
  date?: string;
  invoice_recipients?: InvoiceRecipients;
}

/** The actions that record a transaction: the body field of the price and the asking-price column taken when none is given. */
export const TRANSACTION_ACTIONS: Partial<
  Record<PropertyAction, { field: 'price_eur' | 'cold_rent_eur'; asking: 'purchase_price_eur' | 'cold_rent_eur' }>
> = {
  'mark-sold': { field: 'price_eur', asking: 'purchase_price_eur' },
  'mark-rented': { field: 'cold_rent_eur', asking: 'cold_rent_eur' },
};

/** The given price and day, checked (both or neither, the day not after today); null when none was given. */
export function givenTransaction(
  field: 'price_eur' | 'cold_rent_eur',
  given: TransactionGiven | null | undefined,
  today: string,
) {
  const price = given?.[field];
  const date = given?.date;
  if (price === undefined && date === undefined) return null;
  const details: ErrorDetail[] = [];
  if (price === undefined) details.push({ field, reason: 'missing' });
  if (date === undefined) details.push({ field: 'date', reason: 'missing' });
  else if (date > today) details.push({ field: 'date', reason: 'out_of_range' });
  if (price === undefined || date === undefined || details.length > 0) {
    throw validationError(
      details,
      `Give \`${field}\` and \`date\` (not in the future) together, or neither to record the asking price and today.`,
    );
  }
  return { price, date };
}

/** The transaction columns: the given price and day, or the asking price and today (assumed); nothing when neither is known. */
export function transactionColumns(
  row: PropertyRow,
  asking: 'purchase_price_eur' | 'cold_rent_eur',
  given: { price: number; date: string } | null,
  today: string,
) {
  if (given)
    return {
      transaction_price_eur: given.price,
      transaction_date: new Date(`${given.date}T00:00:00Z`),
      transaction_price_assumed: false,
    };
  const price = row[asking];
  if (price === null) return { transaction_price_eur: null, transaction_date: null, transaction_price_assumed: false };
  return {
    transaction_price_eur: price,
    transaction_date: new Date(`${today}T00:00:00Z`),
    transaction_price_assumed: true,
  };
}
