import { NotFoundError, UsageError, type CommandContext } from './commands.js';
import { accountDefaultCountry, setAccountDefaultCountry } from '@platform/accounts';

/**
 * `account set-default-country --account <id> --country DE`: the country of the account's new
 * properties whose address names none (the API's own default stays `US`). Properties already
 * stored keep theirs.
 */
export async function setDefaultCountry(ctx: CommandContext, input: { account?: string; country?: string }) {
  if (!input.account) throw new UsageError('--account is required.');
  const country = input.country?.trim().toUpperCase();
  if (!country || !/^[A-Z]{2}$/.test(country))
    throw new UsageError(`--country must be an ISO 3166-1 alpha-2 code such as DE (got "${input.country ?? ''}").`);
  const previous = await accountDefaultCountry(ctx.db, input.account);
  if (previous === null) throw new NotFoundError(`No account ${input.account}.`);
  await setAccountDefaultCountry(ctx.db, input.account, country);
  return { id: input.account, default_country: country, previous_default_country: previous };
}
