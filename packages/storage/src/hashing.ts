import { createHash, type Hash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { BlobTooLargeError } from './storage.js';

/**
 * Passes the bytes through while hashing (SHA-256) and counting them; fails with
 * `BlobTooLargeError` as soon as more than `maxBytes` arrive, so nothing more is read.
 */
export class HashingCounter extends Transform {
  private readonly hash: Hash = createHash('sha256');
  size = 0;

  constructor(private readonly maxBytes: number | undefined) {
    super();
  }

  override _transform(chunk: Buffer | string, encoding: BufferEncoding, callback: TransformCallback): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk;
    this.size += bytes.length;
    if (this.maxBytes !== undefined && this.size > this.maxBytes) {
      callback(new BlobTooLargeError(this.maxBytes));
      return;
    }
    this.hash.update(bytes);
    callback(null, bytes);
  }

  /** The lower-case hex SHA-256 of everything that passed; call once, after the end. */
  digest(): string {
    return this.hash.digest('hex');
  }
}
