import type { ApiKeyView } from '@platform/auth';
import { renderTable, when, type Column } from './table.js';

/** What a key can do at `now`: revoked, expired, expiring (a roll's predecessor) or active. */
export function keyState(key: ApiKeyView, now: Date): string {
  if (key.revoked_at) return 'revoked';
  if (key.expires_at && Date.parse(key.expires_at) <= now.getTime()) return 'expired';
  if (key.expires_at) return key.rolled_into ? `rolled into ${key.rolled_into}, expiring` : 'expiring';
  return 'active';
}

/** The keys as a table: never a secret, only the display prefix the key starts with. */
export function keyTable(keys: readonly ApiKeyView[], now: Date): string {
  const columns: Column<ApiKeyView>[] = [
    { header: 'ID', value: (k) => k.id },
    { header: 'PREFIX', value: (k) => `${k.display_prefix}…` },
    { header: 'SCOPES', value: (k) => k.scopes.join(',') },
    { header: 'CREATED', value: (k) => when(k.created_at) },
    { header: 'AGE (DAYS)', value: (k) => String(k.age_days) },
    { header: 'LAST USED', value: (k) => when(k.last_used_at) },
    { header: 'EXPIRES', value: (k) => when(k.expires_at) },
    { header: 'REVOKED', value: (k) => when(k.revoked_at) },
    { header: 'STATE', value: (k) => keyState(k, now) },
  ];
  return renderTable(columns, keys, '(no keys)');
}
