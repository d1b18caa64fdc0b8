import { createCipheriv, createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { expect } from 'vitest';
import { DropError, type DropFailureKind } from '../src/index.js';

export const MiB = 1024 * 1024;

export const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * `size` pseudo-random bytes (AES-256-CTR over zeros, the same for the same seed), produced
 * 64 KiB at a time as they are read: a fresh Readable per call, as deliverFile's retry needs.
 */
export function generated(size: number, seed = 1): { open: () => Readable; sha256: string; produced: () => number } {
  let produced = 0;
  const open = () => {
    const cipher = createCipheriv('aes-256-ctr', Buffer.alloc(32, seed), Buffer.alloc(16));
    const zeros = Buffer.alloc(64 * 1024);
    let left = size;
    produced = 0;
    return new Readable({
      read() {
        if (left === 0) return void this.push(null);
        const chunk = cipher.update(zeros.subarray(0, Math.min(left, zeros.length)));
        left -= chunk.length;
        produced += chunk.length;
        this.push(chunk);
      },
    });
  };
  const hash = createHash('sha256');
  const cipher = createCipheriv('aes-256-ctr', Buffer.alloc(32, seed), Buffer.alloc(16));
  for (let left = size; left > 0; left -= 64 * 1024)
    hash.update(cipher.update(Buffer.alloc(Math.min(left, 64 * 1024))));
  return { open, sha256: hash.digest('hex'), produced: () => produced };
}

/** The DropError `work` rejects with, checked for its kind, permanence and the secret's absence. */
export async function dropFailure(
  work: Promise<unknown>,
  kind: DropFailureKind,
  permanent: boolean,
  secret: string,
): Promise<DropError> {
  const error = await work.then(
    () => expect.fail(`expected a ${kind} DropError, it succeeded`),
    (failure: unknown) => failure,
  );
  expect(error, String(error)).toBeInstanceOf(DropError);
  const drop = error as DropError;
  expect({ kind: drop.kind, permanent: drop.permanent }, drop.message).toEqual({ kind, permanent });
  expect(drop.message).not.toContain(secret);
  for (const line of secret.split('\n').filter((l) => l.length >= 16)) expect(drop.message).not.toContain(line);
  return drop;
}
