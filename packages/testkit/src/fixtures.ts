import type { Environment, PrismaClient } from '@platform/db';
import { Service } from '@platform/db';
import { insertAccount } from '@platform/accounts';
import { createApiKey, insertApplication, type KeyOwner } from '@platform/auth';
import { newId } from '@platform/db';
import { rememberSecret } from './run-log.js';

export const TEST_PEPPER = 'test-pepper-0123456789abcdefghijklmnopqrstuvwxyz';

export interface Tenant {
  accountId: string;
  applicationId: string;
  keyId: string;
  key: string;
}

/**
 * Services for the packages' own tests, which know no app: each stands on one value of the
 * database's `Service` enum, with a key prefix and scopes of its own.
 */
export const TEST_SERVICES = Object.values(Service).map((id, i): KeyOwner => ({
  id,
  keyPrefix: `t${'abcdefgh'[i]}`,
  names: { en: `test service ${i + 1}`, de: `Testdienst ${i + 1}` },
  scopes: ['things:read', 'things:write', 'keys:manage'],
}));

/** A service other than the given one, for "a key of another service" cases. */
export function otherServiceThan(service: Pick<KeyOwner, 'id'>): KeyOwner {
  return TEST_SERVICES.find((other) => other.id !== service.id)!;
}

/** An account with one application and one key (all scopes of the service unless given). */
export async function createTenant(
  prisma: PrismaClient,
  options: { service: KeyOwner; scopes?: readonly string[]; environment?: Environment; pepper?: string },
): Promise<Tenant> {
  const accountId = newId('acct');
  await insertAccount(prisma, { id: accountId, name: `Account ${accountId}` });
  const { id: applicationId } = await insertApplication(prisma, {
    account_id: accountId,
    service: options.service.id,
    name: 'test app',
  });
  const { key, plaintext } = await createApiKey(prisma, {
    applicationId,
    service: options.service,
    environment: options.environment ?? 'sandbox',
    scopes: [...(options.scopes ?? options.service.scopes)],
    pepper: options.pepper ?? TEST_PEPPER,
  });
  rememberSecret(plaintext);
  return { accountId, applicationId, keyId: key.id, key: plaintext };
}

/** Another key for an existing application. */
export async function addKey(
  prisma: PrismaClient,
  tenant: Tenant,
  options: { service: KeyOwner; scopes: readonly string[]; environment?: Environment },
): Promise<{ id: string; key: string }> {
  const { key, plaintext } = await createApiKey(prisma, {
    applicationId: tenant.applicationId,
    service: options.service,
    environment: options.environment ?? 'sandbox',
    scopes: [...options.scopes],
    pepper: TEST_PEPPER,
  });
  rememberSecret(plaintext);
  return { id: key.id, key: plaintext };
}
