import { forgetSecretFingerprint, SHARED_SECRET_NAMES, type SharedSecretName } from '@platform/runtime';
import { UsageError, type CommandContext } from './commands.js';

/**
 * `secrets forget <NAME>`: after a deliberate change of a secret every instance shares (a
 * rotation), the database forgets the fingerprint it recorded; the next process to start records
 * the new one. Run it once every old instance is stopped: until then a stopped one would start again.
 */
export async function forgetSecret(ctx: CommandContext, name: string | undefined): Promise<object> {
  if (!SHARED_SECRET_NAMES.includes(name as SharedSecretName))
    throw new UsageError(`Name one of ${SHARED_SECRET_NAMES.join(', ')} (got "${name ?? ''}").`);
  const { forgotten, recordedAt } = await forgetSecretFingerprint(ctx.db, name as SharedSecretName);
  return {
    name,
    forgotten,
    recorded_at: recordedAt?.toISOString() ?? null,
    next: 'The next instance to start records the value it runs with; start every instance with that value.',
  };
}

/** The `secrets` commands run with any secrets: they are how a deliberate change is made. */
export function isSecretsCommand(argv: readonly string[]): boolean {
  return argv.find((arg) => !arg.startsWith('-')) === 'secrets';
}
