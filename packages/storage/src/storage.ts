import type { Readable } from 'node:stream';

/** What a completed write stored: the content address and what the caller records with its row. */
export interface StoredBlob {
  /** Content address: the lower-case hex SHA-256 of the bytes (the same bytes always get the same key). */
  key: string;
  size: number;
  sha256: string;
}

export interface PutOptions {
  /** The write fails with `BlobTooLargeError` as soon as more bytes than this arrive (nothing is kept). */
  maxBytes?: number;
}

export interface StoredContent {
  stream: Readable;
  size: number;
}

/**
 * One storage interface for every file of both services (media, artifacts, later PDFs). Writes
 * stream (never buffered whole) and are content-addressed; a failed or aborted write leaves nothing.
 */
export interface BlobStorage {
  /** Streams `source` into storage while hashing it; the blob becomes visible only when complete. */
  put(source: Readable, options?: PutOptions): Promise<StoredBlob>;
  /** The content, streamed; `null` when there is no such blob. */
  get(key: string): Promise<StoredContent | null>;
  /** Removes the blob; removing a missing blob is no error. */
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  /** Where the blob is on this machine's file system, for a driver that keeps it there (a child process then reads it in place); absent otherwise. */
  localPath?(key: string): string;
}

export class BlobTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The content is larger than ${maxBytes} bytes.`);
  }
}

/** Keys are SHA-256 hex digests: anything else (a path trick) never reaches a driver. */
export function isBlobKey(key: string): boolean {
  return /^[0-9a-f]{64}$/.test(key);
}

/** A key that is not a blob key (see `isBlobKey`) was given to `get`, `delete` or `exists`. */
export class InvalidBlobKeyError extends Error {
  constructor() {
    super('Not a blob key (64 lower-case hex characters).');
  }
}

export function assertBlobKey(key: string): void {
  if (typeof key !== 'string' || !isBlobKey(key)) throw new InvalidBlobKeyError();
}
