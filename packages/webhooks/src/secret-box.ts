import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const TAG_BYTES = 16;

/**
 * AES-256-GCM for signing secrets at rest: they must stay usable for signing, so they are
 * encrypted rather than hashed. Stored as `v1.<iv>.<tag>.<ciphertext>` (base64url).
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(key: string) {
    const bytes = Buffer.from(key, /^[0-9a-f]{64}$/i.test(key) ? 'hex' : 'base64url');
    if (bytes.length !== 32)
      throw new Error('The webhook secret key must be 32 bytes (64 hex or 43 base64url characters).');
    this.key = bytes;
  }

  encrypt(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), ciphertext]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  decrypt(stored: string): string {
    const [version, iv, tag, ciphertext] = stored.split('.');
    if (version !== 'v1' || !iv || !tag || ciphertext === undefined) throw new Error('Unknown secret format.');
    // The full 16-byte tag only: GCM would otherwise accept a truncated tag (down to 4 bytes),
    // which makes forging a ciphertext far easier.
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'), {
      authTagLength: TAG_BYTES,
    });
    const authTag = Buffer.from(tag, 'base64url');
    if (authTag.length !== TAG_BYTES) throw new Error("The secret's authentication tag is not 16 bytes.");
    decipher.setAuthTag(authTag);
    try {
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    } catch (error) {
      throw new Error(
        'A stored signing secret does not decrypt: it was encrypted with another webhook secret key, or changed.',
        { cause: error },
      );
    }
  }
}

/** A new signing secret: `whsec_` + 256 random bits. */
export function generateSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}
