/*
 * The name a transfer's ZIP gets on the portal's import account. Importers pick up every file that
 * lands in the folder and delete it afterwards; a name reused before the last file was picked up
 * overwrites a transfer that was never read. So each transfer has its own name: the provider's
 * number, the moment in UTC to the second, and a sequence number for two transfers in one second.
 * Only `[A-Za-z0-9_-]` of the provider's number is kept (some importers refuse `/`, spaces or
 * umlauts in a file name), cut to 64 characters.
 */

const MAX_PROVIDER_CHARS = 64;

/** `ANB-42`, 2025-06-15T08:30:00Z, 7 → `ANB-42_20250615083000_7.zip`. */
export function portalFileName(anbieternr: string, at: Date, sequence: number): string {
  const provider = anbieternr.replace(/[^A-Za-z0-9_-]/g, '').slice(0, MAX_PROVIDER_CHARS);
  if (provider === '')
    throw new TypeError(`anbieternr has no character a file name can carry: ${JSON.stringify(anbieternr)}`);
  if (Number.isNaN(at.getTime())) throw new RangeError('the transfer time is not a valid date');
  if (!Number.isSafeInteger(sequence) || sequence < 0)
    throw new RangeError(`sequence must be a whole number ≥ 0, got ${sequence}`);
  const stamp = at
    .toISOString()
    .replace(/\.\d{3}Z$/, '')
    .replace(/\D/g, '');
  return `${provider}_${stamp}_${sequence}.zip`;
}
