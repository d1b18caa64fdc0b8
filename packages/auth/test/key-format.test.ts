import { describe, expect, it } from 'vitest';
import { generateKey, hashKey, parseKey } from '../src/key-format.js';

describe('key format', () => {
  it('names service and environment in the prefix, then 32 random and 6 checksum characters', () => {
    const cases = [
      ['pm', 'sandbox', 'pm_test_'],
      ['pm', 'production', 'pm_live_'],
      ['ap', 'sandbox', 'ap_test_'],
      ['ap', 'production', 'ap_live_'],
    ] as const;
    for (const [service, environment, prefix] of cases) {
      const { plaintext, displayPrefix } = generateKey(service, environment);
      expect(plaintext).toMatch(new RegExp(`^${prefix}[0-9A-Za-z]{38}$`));
      expect(displayPrefix).toBe(plaintext.slice(0, 12));
      expect(parseKey(plaintext)).toEqual({ prefix: service, environment });
    }
  });

  it('never repeats a key', () => {
    const keys = new Set(Array.from({ length: 2000 }, () => generateKey('pm', 'sandbox').plaintext));
    expect(keys.size).toBe(2000);
  });

  it('refuses a key whose checksum does not match (a one-character typo)', () => {
    const { plaintext } = generateKey('pm', 'sandbox');
    const position = 15;
    const replacement = plaintext[position] === 'a' ? 'b' : 'a';
    const typo = plaintext.slice(0, position) + replacement + plaintext.slice(position + 1);
    expect(parseKey(typo)).toBeNull();
    expect(parseKey(plaintext.slice(0, -1))).toBeNull();
    expect(parseKey(`xx_test_${plaintext.slice(8)}`)).toBeNull();
    expect(parseKey('')).toBeNull();
  });

  it('hashes with the pepper: same key and pepper give the same hash, another pepper another', () => {
    const { plaintext } = generateKey('ap', 'production');
    expect(hashKey(plaintext, 'pepper-one')).toMatch(/^[0-9a-f]{64}$/);
    expect(hashKey(plaintext, 'pepper-one')).toBe(hashKey(plaintext, 'pepper-one'));
    expect(hashKey(plaintext, 'pepper-two')).not.toBe(hashKey(plaintext, 'pepper-one'));
  });
});
