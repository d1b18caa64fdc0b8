import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { PropertyType, TransactionMarketing, newId, type Prisma } from '@platform/db';
import { CheckFailed, NotFoundError, UsageError, type CommandContext } from './commands.js';
import { accountExists } from '@platform/accounts';
import { insertMarketTransactions } from '@platform/property-service';

/**
 * `comparables import --account <id> <file.csv>`: market transactions imported into one account,
 * used by its valuations as comparables. Comma-separated, UTF-8, a header line naming these
 * columns (any order, no others, no quoted fields):
 *
 * | column          | value                                                         |
 * |-----------------|---------------------------------------------------------------|
 * | type            | apartment, house, land, commercial or parking                  |
 * | marketing       | sale or rent                                                  |
 * | postal_code     | five digits                                                   |
 * | living_area_sqm | m², greater than 0 (a dot for decimals)                       |
 * | year_built      | 1000 … 2100, or empty                                         |
 * | price_eur       | whole euros, greater than 0: the sale price or the monthly cold rent |
 * | date            | YYYY-MM-DD, not in the future                                 |
 *
 * All or nothing: every bad row is reported with its line number and reason, and then nothing is
 * imported (exit code 1); otherwise all rows are inserted in one transaction.
 */
export const COMPARABLE_COLUMNS = [
  'type',
  'marketing',
  'postal_code',
  'living_area_sqm',
  'year_built',
  'price_eur',
  'date',
] as const;
type Column = (typeof COMPARABLE_COLUMNS)[number];

const TYPES = Object.values(PropertyType) as string[];
const MARKETINGS = Object.values(TransactionMarketing) as string[];
const MAX_EUR = 2_147_483_647;

export interface RowError {
  line: number;
  reason: string;
}

type Row = Omit<Prisma.MarketTransactionCreateManyInput, 'id' | 'account_id' | 'source_ref' | 'imported_at'>;

const isDay = (value: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(value) && new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value;

/** One data row checked; the reasons of every bad field, or the row. */
function parseRow(cells: Record<Column, string>, today: string): Row | string[] {
  const reasons: string[] = [];
  const { type, marketing, postal_code, living_area_sqm, year_built, price_eur, date } = cells;
  if (!TYPES.includes(type)) reasons.push(`type must be one of ${TYPES.join(', ')} (got "${type}")`);
  if (!MARKETINGS.includes(marketing)) reasons.push(`marketing must be sale or rent (got "${marketing}")`);
  if (!/^\d{5}$/.test(postal_code)) reasons.push(`postal_code must be five digits (got "${postal_code}")`);
  const area = /^\d+(\.\d+)?$/.test(living_area_sqm) ? Number(living_area_sqm) : NaN;
  if (!(area > 0 && area <= 100_000))
    reasons.push(`living_area_sqm must be a number of m² greater than 0 (got "${living_area_sqm}")`);
  const year = year_built === '' ? null : /^\d{4}$/.test(year_built) ? Number(year_built) : NaN;
  if (year !== null && !(year >= 1000 && year <= 2100))
    reasons.push(`year_built must be a year 1000 … 2100 or empty (got "${year_built}")`);
  const price = /^\d+$/.test(price_eur) ? Number(price_eur) : NaN;
  if (!(price > 0 && price <= MAX_EUR))
    reasons.push(`price_eur must be whole euros greater than 0 (got "${price_eur}")`);
  if (!isDay(date)) reasons.push(`date must be a date YYYY-MM-DD (got "${date}")`);
  else if (date > today) reasons.push(`date ${date} is in the future`);
  if (reasons.length > 0) return reasons;
  return {
    type: type as PropertyType,
    marketing: marketing as TransactionMarketing,
    postal_code,
    living_area_sqm: area,
    year_built: year,
    price_eur: price,
    date: new Date(`${date}T00:00:00Z`),
  };
}

/** The rows of a CSV text with their line numbers, or the errors; the header decides the column order. */
export function parseComparablesCsv(
  text: string,
  today: string,
): { rows: (Row & { line: number })[]; errors: RowError[] } {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const header = (lines[0] ?? '').split(',').map((h) => h.trim());
  const missing = COMPARABLE_COLUMNS.filter((c) => !header.includes(c));
  const unknown = header.filter((h) => !(COMPARABLE_COLUMNS as readonly string[]).includes(h));
  const duplicate = header.filter((h, i) => header.indexOf(h) !== i);
  if (missing.length > 0 || unknown.length > 0 || duplicate.length > 0) {
    const problems = [
      missing.length ? `missing ${missing.join(', ')}` : '',
      unknown.length ? `unknown ${unknown.join(', ')}` : '',
      duplicate.length ? `repeated ${duplicate.join(', ')}` : '',
    ].filter(Boolean);
    return {
      rows: [],
      errors: [
        {
          line: 1,
          reason: `the header must name the columns ${COMPARABLE_COLUMNS.join(',')} (${problems.join('; ')})`,
        },
      ],
    };
  }
  const rows: (Row & { line: number })[] = [];
  const errors: RowError[] = [];
  lines.slice(1).forEach((text, index) => {
    const line = index + 2;
    if (text.trim() === '') return;
    const values = text.split(',').map((v) => v.trim());
    if (values.length !== header.length) {
      errors.push({ line, reason: `${values.length} fields, the header has ${header.length}` });
      return;
    }
    const cells = Object.fromEntries(header.map((h, i) => [h, values[i]])) as Record<Column, string>;
    const parsed = parseRow(cells, today);
    if (Array.isArray(parsed)) errors.push({ line, reason: parsed.join('; ') });
    else rows.push({ ...parsed, line });
  });
  return { rows, errors };
}

/** Imports the file into the account, all or nothing; resolves to how many rows were imported. */
export async function importComparables(ctx: CommandContext, input: { account?: string }, file: string | undefined) {
  if (!input.account) throw new UsageError('--account is required.');
  if (!file) throw new UsageError('The CSV file is required: comparables import --account <accountId> <file.csv>');
  const accountId = input.account;
  if (!(await accountExists(ctx.db, accountId))) throw new NotFoundError(`No account ${accountId}.`);
  const path = resolve(file);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  const at = (ctx.now ?? (() => new Date()))();
  const { rows, errors } = parseComparablesCsv(text, at.toISOString().slice(0, 10));
  if (errors.length > 0) throw new CheckFailed({ imported: 0, file, errors });
  const name = basename(path).slice(0, 180);
  const data = rows.map(({ line, ...row }) => ({
    ...row,
    id: newId('mtx', at.getTime()),
    account_id: accountId,
    source_ref: `${name}:${line}`,
    imported_at: at,
  }));
  await insertMarketTransactions(ctx.db, data);
  return { imported: data.length, account_id: accountId, file };
}
