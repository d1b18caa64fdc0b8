import type { Db } from '@platform/db';

/** `2026-000001`: the year and the number within it, six digits (more when a year has over 999,999). */
export function formatInvoiceNumber(year: number, sequence: number): string {
  return `${year}-${String(sequence).padStart(6, '0')}`;
}

/**
 * The next invoice number of an account in a series (`commission`, `chargeback`) and year, taken in
 * the caller's transaction, which must also write the invoice: the counter row stays locked until
 * it commits, so concurrent invoices queue (no double), and a rollback gives the number back (no gap).
 */
export async function nextInvoiceNumber(
  tx: Db,
  accountId: string,
  series: string,
  year: number,
): Promise<{ number: string; sequence: number }> {
  const [{ last }] = await tx.$queryRawUnsafe<{ last: number }[]>(
    `INSERT INTO invoice_counters (account_id, series, year, last) VALUES ($1, $2, $3, 1)
     ON CONFLICT (account_id, series, year) DO UPDATE SET last = invoice_counters.last + 1
     RETURNING last`,
    accountId,
    series,
    year,
  );
  return { number: formatInvoiceNumber(year, last), sequence: last };
}
