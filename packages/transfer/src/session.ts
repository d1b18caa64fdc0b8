import type { Readable } from 'node:stream';
import { DropError } from './types.js';

/**
 * One logged-in connection to a drop, its operations relative to the drop's folder. Every
 * method rejects with the library's own error; the caller classifies it (errors.ts) by step.
 */
export interface Session {
  /** sftp: the server's host key fingerprint (`SHA256:…`) seen at the login. */
  hostKeyFingerprint?: string;
  /** Rejects when the folder is missing or is not a folder. */
  openFolder(): Promise<void>;
  /** Writes `source` to `name`, creating or truncating it; resolves once the server has it all. */
  write(name: string, source: Readable): Promise<void>;
  /** The file's size on the server. */
  size(name: string): Promise<number>;
  /** Renames `from` to `to`, replacing an existing `to`. */
  rename(from: string, to: string): Promise<void>;
  remove(name: string): Promise<void>;
  list(): Promise<string[]>;
  read(name: string): Promise<Buffer>;
  /** Tears the connection down at once (a stalled one included). */
  destroy(): void;
  /** Ends the connection politely; never rejects. */
  close(): Promise<void>;
}

/**
 * Runs `work`, failing it with a `timeout` DropError (and destroying the session through
 * `onExpire`) when `timeoutMs` pass without `touch()` being called: an idle timeout, so that a
 * large transfer that keeps moving is never cut, while a stalled one is.
 */
export async function withIdleTimeout<T>(
  timeoutMs: number,
  message: string,
  onExpire: () => void,
  work: (touch: () => void) => Promise<T>,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let expire: (error: DropError) => void = () => undefined;
  const expired = new Promise<never>((_, reject) => (expire = reject));
  const touch = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      onExpire();
      expire(new DropError('timeout', message));
    }, timeoutMs);
  };
  touch();
  const running = work(touch);
  // Whichever loses the race must not become an unhandled rejection.
  running.catch(() => undefined);
  expired.catch(() => undefined);
  try {
    return await Promise.race([running, expired]);
  } finally {
    clearTimeout(timer);
  }
}
