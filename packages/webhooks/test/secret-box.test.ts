import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretBox } from '../src/secret-box.js';

const box = new SecretBox(randomBytes(32).toString('hex'));

/** The stored form `v1.<iv>.<tag>.<ciphertext>` with its tag changed. */
function withTag(stored: string, change: (tag: Buffer) => Buffer): string {
  const [version, iv, tag, ciphertext] = stored.split('.');
  return [version, iv, change(Buffer.from(tag, 'base64url')).toString('base64url'), ciphertext].join('.');
}

describe('SecretBox', () => {
  it('decrypts what it encrypted, with a fresh IV every time', () => {
    const a = box.encrypt('whsec_abc');
    expect(box.decrypt(a)).toBe('whsec_abc');
    expect(box.encrypt('whsec_abc')).not.toBe(a);
  });

  it.each([12, 8, 4])(
    'refuses the right tag truncated to %i bytes (GCM would accept it without authTagLength)',
    (bytes) => {
      const stored = box.encrypt('whsec_abc');
      expect(() => box.decrypt(withTag(stored, (tag) => tag.subarray(0, bytes)))).toThrow();
    },
  );

  it('refuses a changed tag, a changed ciphertext and another key', () => {
    const stored = box.encrypt('whsec_abc');
    expect(() =>
      box.decrypt(withTag(stored, (tag) => Buffer.from(tag.map((b, i) => (i === 0 ? b ^ 1 : b))))),
    ).toThrow();
    const [version, iv, tag, ciphertext] = stored.split('.');
    const flipped = Buffer.from(ciphertext, 'base64url');
    flipped[0] ^= 1;
    expect(() => box.decrypt([version, iv, tag, flipped.toString('base64url')].join('.'))).toThrow();
    expect(() => new SecretBox(randomBytes(32).toString('hex')).decrypt(stored)).toThrow(/another webhook secret key/);
  });
});
