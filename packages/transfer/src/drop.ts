import { randomBytes } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describeDrop, dropError, type Step } from './errors.js';
import { openFtp, StepError } from './ftp.js';
import { withIdleTimeout, type Session } from './session.js';
import { openSftp } from './sftp.js';
import { DropError, type Drop, type DropOptions, type TransferProtocol } from './types.js';

const DEFAULT_TIMEOUT_MS = 15_000;
const CHUNK = 64 * 1024;

/**
 * The name a file is written under before its rename: `<name>.part`. Portals import by
 * extension (`*.zip`, `*.xml`), so a `.zip.part` is never picked up half-written; the name stays
 * visible in a listing (vsftpd and others hide dot files), and no server's dot-file rules apply.
 */
export const partName = (name: string) => `${name}.part`;

/** A plain file name: no folder part, no control characters, not `.` or `..`. */
function assertFileName(name: string): void {
  // eslint-disable-next-line no-control-regex
  if (!name || name === '.' || name === '..' || /[/\\\u0000-\u001f\u007f]/.test(name) || name.length > 200)
    throw new TypeError(`Not a plain file name: ${JSON.stringify(name)}`);
}

const OPENERS: Record<TransferProtocol, (drop: Drop, timeoutMs: number) => Promise<Session>> = {
  sftp: openSftp,
  ftp: openFtp,
  ftps: openFtp,
};

type Run = <T>(step: Step, work: (touch: () => void) => Promise<T>, subject?: string) => Promise<T>;

/** Opens a session, hands `work` a runner that times and classifies each step, always closes. */
async function withSession<T>(
  drop: Drop,
  options: DropOptions | undefined,
  work: (session: Session, run: Run) => Promise<T>,
): Promise<T> {
  const timeoutMs = options?.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  // Set once connected: what a step that times out destroys.
  const live: { session?: Session } = {};
  const run: Run = async (step, steps, subject) => {
    const message = `${describeDrop(drop)}: ${step}${subject ? ` ${subject}` : ''} timed out (no progress for ${timeoutMs} ms)`;
    try {
      return await withIdleTimeout(timeoutMs, message, () => live.session?.destroy(), steps);
    } catch (error) {
      throw error instanceof StepError
        ? dropError(error.error, error.step, drop)
        : dropError(error, step, drop, subject);
    }
  };
  const open = OPENERS[drop.protocol];
  // A protocol read from storage that is none of the three must not fall back to plain FTP.
  if (!Object.hasOwn(OPENERS, drop.protocol)) throw new TypeError(`Unknown drop protocol: ${String(drop.protocol)}`);
  const opening = open(drop, timeoutMs);
  const session = await run('connect', () => opening).catch((error: unknown) => {
    // Timed out here, the library may still finish logging in: that connection is closed then.
    opening.then((late) => late.destroy()).catch(() => undefined);
    throw error;
  });
  live.session = session;
  try {
    return await work(session, run);
  } finally {
    await withIdleTimeout(
      Math.min(timeoutMs, 5_000),
      'close',
      () => session.destroy(),
      () => session.close(),
    ).catch(() => undefined);
  }
}

function* chunksOf(buffer: Buffer): Generator<Buffer> {
  for (let offset = 0; offset < buffer.length; offset += CHUNK) yield buffer.subarray(offset, offset + CHUNK);
}

/** Connects, logs in, checks the folder exists and is writable (a probe file, removed again); sftp: resolves to the host key seen. */
export async function checkDrop(drop: Drop, options?: DropOptions): Promise<{ hostKeyFingerprint?: string }> {
  return withSession(drop, options, async (session, run) => {
    await run('folder', () => session.openFolder(), drop.folder);
    const probe = partName(`drop-check-${randomBytes(6).toString('hex')}`);
    await run('write', () => session.write(probe, Readable.from([Buffer.from('drop check\n')])), probe);
    await run('remove', () => session.remove(probe), probe);
    return session.hostKeyFingerprint ? { hostKeyFingerprint: session.hostKeyFingerprint } : {};
  });
}

/**
 * Uploads `source` as `name` into the drop's folder: written as `partName(name)`, its size
 * checked on the server, then renamed to `name` (replacing a file of that name), so that the
 * portal never sees half a file. On failure the temporary file is removed if the server still
 * lets us (over a fresh connection when the first is gone). A failing `source` rejects with the
 * source's own error; every drop failure is a DropError.
 */
export async function deliverFile(
  drop: Drop,
  name: string,
  source: Buffer | (() => NodeJS.ReadableStream),
  options?: DropOptions,
): Promise<{ bytes: number }> {
  assertFileName(name);
  const temp = partName(name);
  let bytes = 0;
  let started = false;
  let sourceError: unknown;
  try {
    await withSession(drop, options, async (session, run) => {
      await run('folder', () => session.openFolder(), drop.folder);
      started = true;
      await run(
        'write',
        async (touch) => {
          let input: NodeJS.ReadableStream;
          try {
            input = Buffer.isBuffer(source) ? Readable.from(chunksOf(source)) : source();
          } catch (error) {
            throw (sourceError = error);
          }
          const counter = new Transform({
            transform(chunk: Buffer, _encoding, done) {
              bytes += chunk.length;
              touch();
              done(null, chunk);
            },
          });
          let writing = true;
          input.on('error', (error: unknown) => writing && (sourceError ??= error));
          pipeline(input, counter).catch(() => undefined);
          try {
            await session.write(temp, counter);
          } finally {
            writing = false;
            counter.destroy();
            (input as Readable).destroy?.();
          }
        },
        temp,
      );
      const size = await run('write', () => session.size(temp), temp);
      if (size !== bytes)
        throw new DropError(
          'protocol',
          `${describeDrop(drop)}: ${temp} has ${size} bytes on the server, ${bytes} were sent`,
        );
      await run('rename', () => session.rename(temp, name), `${temp} to ${name}`);
    });
  } catch (error) {
    if (started) await removeQuietly(drop, temp, options);
    throw sourceError ?? error;
  }
  return { bytes };
}

/** Removes `name` over a fresh connection, ignoring every failure: a clean-up after a failure. */
async function removeQuietly(drop: Drop, name: string, options?: DropOptions): Promise<void> {
  const timeoutMs = Math.min(options?.timeoutMs ?? DEFAULT_TIMEOUT_MS, 5_000);
  await withSession(drop, { timeoutMs }, async (session, run) => {
    await run('folder', () => session.openFolder());
    await run('remove', () => session.remove(name), name);
  }).catch(() => undefined);
}

/** The file names in the drop's folder, sorted. */
export async function listDrop(drop: Drop, options?: DropOptions): Promise<string[]> {
  return withSession(drop, options, async (session, run) => {
    await run('folder', () => session.openFolder(), drop.folder);
    return run('list', () => session.list(), drop.folder);
  });
}

/** One file of the drop's folder, read fully into memory (tests, checks). */
export async function fetchFile(drop: Drop, name: string, options?: DropOptions): Promise<Buffer> {
  assertFileName(name);
  return withSession(drop, options, async (session, run) => {
    await run('folder', () => session.openFolder(), drop.folder);
    return run('read', () => session.read(name), name);
  });
}
