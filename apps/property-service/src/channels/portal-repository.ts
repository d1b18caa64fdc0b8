import type { Db, Prisma } from '@platform/db';
import type { PortalSettings, PortalSettingsView } from './portal-schemas.js';

export type PortalAccountRow = Prisma.PortalAccountGetPayload<object>;

/** Encrypts and decrypts the import accounts' secrets (the webhooks' secret box). */
export interface SecretCipher {
  encrypt(plaintext: string): string;
  decrypt(stored: string): string;
}

/** The import accounts of portal channels: the only place `portal_accounts` is queried. */
export const portalAccountRepository = {
  find(db: Db, channelId: string): Promise<PortalAccountRow | null> {
    return db.portalAccount.findUnique({ where: { channel_id: channelId } });
  },

  async ofChannels(db: Db, channelIds: readonly string[]): Promise<Map<string, PortalAccountRow>> {
    if (channelIds.length === 0) return new Map();
    const rows = await db.portalAccount.findMany({ where: { channel_id: { in: [...channelIds] } } });
    return new Map(rows.map((row) => [row.channel_id, row]));
  },

  async upsert(
    db: Db,
    key: { channelId: string; accountId: string },
    settings: PortalSettings,
    cipher: SecretCipher,
    at: Date,
  ): Promise<void> {
    const columns = {
      protocol: settings.transfer,
      host: settings.host,
      port: settings.port,
      username: settings.username,
      secret_encrypted: cipher.encrypt(settings.secret),
      folder: settings.folder,
      anbieternr: settings.anbieternr,
      mode: settings.mode,
      host_key_fingerprint: settings.host_key_fingerprint ?? null,
      updated_at: at,
    };
    await db.portalAccount.upsert({
      where: { channel_id: key.channelId },
      create: { channel_id: key.channelId, account_id: key.accountId, ...columns, created_at: at },
      update: columns,
    });
  },
};

/** The settings of a stored account, with its secret decrypted (for a transfer or a merge patch). */
export function settingsOf(row: PortalAccountRow, cipher: Pick<SecretCipher, 'decrypt'>): PortalSettings {
  const { host_key_fingerprint, ...view } = viewOf(row);
  return {
    ...view,
    secret: cipher.decrypt(row.secret_encrypted),
    ...(host_key_fingerprint ? { host_key_fingerprint } : {}),
  };
}

/** What the API shows of an import account: everything but the secret. */
export function viewOf(row: PortalAccountRow): PortalSettingsView {
  return {
    transfer: row.protocol,
    host: row.host,
    port: row.port,
    username: row.username,
    folder: row.folder,
    anbieternr: row.anbieternr,
    mode: row.mode,
    host_key_fingerprint: row.host_key_fingerprint,
  };
}
