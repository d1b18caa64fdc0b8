import { createHmac, randomInt } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { Environment } from '@platform/db';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 32; // 32 × log2(62) ≈ 190 bits
const CHECKSUM_LENGTH = 6;
const DISPLAY_LENGTH = 12;

const ENVIRONMENT_PREFIX: Record<Environment, string> = { sandbox: 'test', production: 'live' };
const KEY_PATTERN = /^([a-z]{2,8})_(test|live)_([0-9A-Za-z]{32})([0-9A-Za-z]{6})$/;

export interface ParsedKey {
  /** The service's key prefix (`pm`, ...); which service it is, the verifier knows. */
  prefix: string;
  environment: Environment;
}

function base62(value: number, length: number): string {
  let out = '';
  let rest = value;
  for (let i = 0; i < length; i++) {
    out = BASE62[rest % 62] + out;
    rest = Math.floor(rest / 62);
  }
  return out;
}

function checksum(body: string): string {
  return base62(crc32(body), CHECKSUM_LENGTH);
}

/**
 * `<service>_<env>_<32 random base62><6 base62 CRC32>` (GitHub's token scheme): secret scanners
 * recognise the prefix and a typo is caught by the checksum without a database lookup.
 */
export function generateKey(prefix: string, environment: Environment): { plaintext: string; displayPrefix: string } {
  let random = '';
  for (let i = 0; i < RANDOM_LENGTH; i++) random += BASE62[randomInt(62)];
  const body = `${prefix}_${ENVIRONMENT_PREFIX[environment]}_${random}`;
  const plaintext = body + checksum(body);
  return { plaintext, displayPrefix: plaintext.slice(0, DISPLAY_LENGTH) };
}

/** Returns prefix and environment of a well-formed key with a valid checksum, else null. */
export function parseKey(candidate: string): ParsedKey | null {
  const match = KEY_PATTERN.exec(candidate);
  if (!match) return null;
  const [, prefix, env, random, sum] = match;
  if (checksum(`${prefix}_${env}_${random}`) !== sum) return null;
  return { prefix, environment: env === 'live' ? 'production' : 'sandbox' };
}

/** What is stored: HMAC-SHA256 with a server-side pepper (keys are random, a slow hash buys nothing). */
export function hashKey(plaintext: string, pepper: string): string {
  return createHmac('sha256', pepper).update(plaintext).digest('hex');
}
