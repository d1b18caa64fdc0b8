import { checkTimeZone, NotFoundError, UsageError, type CommandContext } from './commands.js';
import { localDate, localDateTime, startOfLocalDay } from '@platform/scheduling';
import { findAccountTimeZone, setAccountTimeZone } from '@platform/accounts';
import { appointmentsBetween } from '@platform/property-service';

async function findAccount(ctx: CommandContext, id: string | undefined) {
  if (!id) throw new UsageError('--account is required.');
  const account = await findAccountTimeZone(ctx.db, id);
  if (!account) throw new NotFoundError(`No account ${id}.`);
  return account;
}

/** Appointments and sessions are shown and exported (.ics) in the account's time zone. */
export async function setTimeZone(ctx: CommandContext, input: { account?: string; 'time-zone'?: string }) {
  const zone = checkTimeZone(input['time-zone']);
  const account = await findAccount(ctx, input.account);
  const updated = await setAccountTimeZone(ctx.db, account.id, zone);
  return { id: updated.id, time_zone: updated.time_zone, previous_time_zone: account.time_zone };
}

/**
 * The account's appointments starting today, today being the account's local day: ids, status,
 * times in local time with the offset, and the host. Nothing about the prospect.
 */
export async function appointmentsToday(ctx: CommandContext, input: { account?: string }) {
  const account = await findAccount(ctx, input.account);
  const zone = account.time_zone;
  const date = localDate((ctx.now ?? (() => new Date()))(), zone);
  const rows = await appointmentsBetween(
    ctx.db,
    account.id,
    startOfLocalDay(date, zone),
    startOfLocalDay(date, zone, 1),
  );
  return {
    account_id: account.id,
    time_zone: zone,
    date,
    appointments: rows.map((row) => ({
      id: row.id,
      property_id: row.property_id,
      status: row.status,
      starts_at: localDateTime(row.starts_at, zone),
      ends_at: localDateTime(row.ends_at, zone),
      host: row.host,
    })),
  };
}
