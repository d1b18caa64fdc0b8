import type { Environment, PrismaClient, Service } from '@platform/db';
import { newId } from '@platform/db';
import { createApiKey, SCOPES } from '@platform/auth';

export const TEST_PEPPER = 'test-pepper-0123456789abcdefghijklmnopqrstuvwxyz';

export interface Tenant {
  accountId: string;
  applicationId: string;
  keyId: string;
  key: string;
}

/** An account with one application and one key (all scopes of the service unless given). */
export async function createTenant(
  prisma: PrismaClient,
  options: { service: Service; scopes?: readonly string[]; environment?: Environment; pepper?: string },
): Promise<Tenant> {
  const accountId = newId('acct');
  await prisma.account.create({ data: { id: accountId, name: `Account ${accountId}` } });
  const applicationId = newId('app');
  await prisma.application.create({ data: { id: applicationId, account_id: accountId, service: options.service, name: 'test app' } });
  const { key, plaintext } = await createApiKey(prisma, {
    applicationId,
    service: options.service,
    environment: options.environment ?? 'sandbox',
    scopes: [...(options.scopes ?? SCOPES[options.service])],
    pepper: options.pepper ?? TEST_PEPPER,
  });
  return { accountId, applicationId, keyId: key.id, key: plaintext };
}

/** Another key for an existing application. */
export async function addKey(
  prisma: PrismaClient,
  tenant: Tenant,
  options: { service: Service; scopes: readonly string[]; environment?: Environment },
): Promise<{ id: string; key: string }> {
  const { key, plaintext } = await createApiKey(prisma, {
    applicationId: tenant.applicationId,
    service: options.service,
    environment: options.environment ?? 'sandbox',
    scopes: [...options.scopes],
    pepper: TEST_PEPPER,
  });
  return { id: key.id, key: plaintext };
}
