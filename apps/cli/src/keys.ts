import {
  DEFAULT_KEYS_PER_APPLICATION,
  KeyLimitError,
  KeyNotRollableError,
  MAX_ROLL_EXPIRY_HOURS,
  applicationById,
  findKeyById,
  rollApiKey,
} from '@platform/auth';
import { NotFoundError, UsageError, type CommandContext } from './commands.js';
import { SERVICES } from './services.js';

/** `key roll <keyId> --expires-in <hours>`: the successor's plaintext once, the old key's expiry. */
export async function rollKey(ctx: CommandContext, keyId: string | undefined, input: { 'expires-in'?: string }) {
  if (!keyId) throw new UsageError('Usage: key roll <keyId> --expires-in <hours>');
  const given = input['expires-in'];
  if (given === undefined)
    throw new UsageError(
      `--expires-in is required: the hours the old key keeps working, 0 (at once, e.g. after a leak) to ${MAX_ROLL_EXPIRY_HOURS} (7 days).`,
    );
  const hours = /^\d+$/.test(given.trim()) ? Number(given) : NaN;
  if (!(hours <= MAX_ROLL_EXPIRY_HOURS))
    throw new UsageError(
      `--expires-in must be a whole number of hours from 0 to ${MAX_ROLL_EXPIRY_HOURS} (7 days); got "${given}".`,
    );
  const key = await findKeyById(ctx.db, keyId);
  const app = key && (await applicationById(ctx.db, key.application_id));
  const service = app && SERVICES.find((s) => s.id === app.service);
  if (!service) throw new NotFoundError(`No API key ${keyId}.`);
  try {
    const rolled = await rollApiKey(ctx.db, {
      keyId,
      service,
      environment: ctx.environment,
      pepper: ctx.pepper,
      expiresInHours: hours,
      maxKeys: ctx.apiKeysPerApplication ?? DEFAULT_KEYS_PER_APPLICATION,
      now: ctx.now?.(),
    });
    if (!rolled) throw new NotFoundError(`No API key ${keyId}.`);
    return {
      ...rolled.key,
      environment: ctx.environment,
      key: rolled.plaintext,
      previous_id: rolled.previous.id,
      previous_expires_at: rolled.previous.expires_at,
    };
  } catch (error) {
    if (error instanceof KeyNotRollableError) throw new UsageError(error.message);
    if (error instanceof KeyLimitError)
      throw new UsageError(
        `Application ${app.id} already has ${error.active} active API keys besides ${keyId} (API_KEYS_PER_APPLICATION=${error.limit}); revoke one first (pnpm cli key list --app ${app.id}, then pnpm cli key revoke <keyId>).`,
      );
    throw error;
  }
}
