import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'; // Crockford base32, lower case

function timePart(now: number): string {
  let time = '';
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  return time;
}

function randomPart(bytes: Buffer, offset: number): string {
  let random = '';
  for (let i = offset; i < offset + 16; i++) random += ALPHABET[bytes[i] % 32];
  return random;
}

/**
 * Opaque, type-prefixed id: `<prefix>_` + 10 characters of time + 16 random characters
 * (80 bits). The time part makes ids roughly sortable, which keeps index inserts local.
 */
export function newId(prefix: string, now: number = Date.now()): string {
  return `${prefix}_${timePart(now)}${randomPart(randomBytes(16), 0)}`;
}

/** `count` ids of the same instant from one call for random bytes (a batch: one system call, not one per row). */
export function newIds(prefix: string, count: number, now: number = Date.now()): string[] {
  const head = `${prefix}_${timePart(now)}`;
  const bytes = randomBytes(16 * count);
  return Array.from({ length: count }, (_, index) => head + randomPart(bytes, 16 * index));
}
