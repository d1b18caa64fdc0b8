import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, readdir, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';

/** What the journal keeps of an erasure: ids and the time only, never a personal value. */
export interface JournalEntry {
  record_id: string;
  account_id: string;
  prospect_id: string;
  erased_at: string;
  requested_by: 'api_key' | 'cli';
  application_id: string | null;
  key_id: string | null;
}

/**
 * The erasures, kept outside the database (a database restore does not roll them back): one folder
 * per month of the erasure time (`2026-11/`), one file per erasure named
 * `<erased_at>_<record_id>.json`, so that names sort by time. An entry is first written as
 * `.pending` (before the erasure's transaction commits) and renamed to `.json` after the commit, or
 * removed when the transaction failed: only `.json` entries count.
 */
export interface ErasureJournal {
  /** Written and flushed before the commit; counts for nothing until `commit`. */
  prepare(entry: JournalEntry): Promise<void>;
  /** The erasure's transaction committed: the entry counts from now on. */
  commit(entry: JournalEntry): Promise<void>;
  /** The erasure's transaction failed: the prepared entry is removed. */
  discard(entry: JournalEntry): Promise<void>;
  /** The months that have entries (`YYYY-MM`), newest first. */
  months(): Promise<string[]>;
  /** The committed entries of a month, oldest first; `since`: only those erased at or after it. */
  entries(month: string, since?: Date): Promise<JournalEntry[]>;
  /** The prepared entries of a month, with when each was written (one left by a process that stopped, or in flight). */
  prepared(month: string): Promise<{ entry: JournalEntry; writtenAt: Date }[]>;
}

const DIR_MODE = 0o700;
const FILE_MODE = 0o600;
/** Files read at once: enough to hide the latency of a network file system, few file handles. */
const PARALLEL_READS = 16;
const MONTH = /^\d{4}-\d{2}$/;
/** `2026-11-28T01:02:03.456Z` with `:` replaced: a valid file name on every file system, same order. */
const stamp = (iso: string) => iso.replaceAll(':', '-');
const monthOf = (iso: string) => iso.slice(0, 7);
const baseName = (entry: JournalEntry) => `${stamp(entry.erased_at)}_${entry.record_id}`;

/**
 * Makes a rename or a new file in `directory` durable. Some platforms cannot open or flush a
 * directory (EISDIR, EPERM, EINVAL): there the rename is as durable as the file system makes it.
 */
async function syncDirectory(directory: string): Promise<void> {
  let handle;
  try {
    handle = await open(directory, 'r');
    await handle.sync();
  } catch (error) {
    if (!['EISDIR', 'EPERM', 'EINVAL', 'EACCES'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
  } finally {
    await handle?.close();
  }
}

async function namesIn(directory: string): Promise<string[]> {
  try {
    return await readdir(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** Reads the files, at most PARALLEL_READS at a time, in the order given. */
async function readAll(paths: string[]): Promise<JournalEntry[]> {
  const entries: JournalEntry[] = new Array(paths.length);
  let next = 0;
  const reader = async () => {
    while (next < paths.length) {
      const index = next++;
      entries[index] = JSON.parse(await readFile(paths[index]!, 'utf8')) as JournalEntry;
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_READS, paths.length) }, reader));
  return entries;
}

/** The journal in a directory (ERASURE_JOURNAL_DIR); created 0700 when missing. */
export function createErasureJournal(directory: string): ErasureJournal {
  const temporary = join(directory, '.tmp');
  const fileOf = (entry: JournalEntry, suffix: '.pending' | '.json') =>
    join(directory, monthOf(entry.erased_at), baseName(entry) + suffix);

  const months = async () =>
    (await namesIn(directory)).filter((name) => MONTH.test(name)).sort((a, b) => b.localeCompare(a));

  return {
    months,

    async prepare(entry) {
      await mkdir(temporary, { recursive: true, mode: DIR_MODE });
      const monthDir = join(directory, monthOf(entry.erased_at));
      const created = await mkdir(monthDir, { recursive: true, mode: DIR_MODE });
      if (created) await syncDirectory(directory);
      // Flushed to disk, then renamed into place: a crash leaves no half-written entry.
      const part = join(temporary, `${randomUUID()}.part`);
      const file = await open(part, 'wx', FILE_MODE);
      try {
        await file.writeFile(`${JSON.stringify(entry)}\n`);
        await file.sync();
      } finally {
        await file.close();
      }
      await rename(part, fileOf(entry, '.pending'));
      await syncDirectory(monthDir);
    },

    async commit(entry) {
      await rename(fileOf(entry, '.pending'), fileOf(entry, '.json')).catch(async (error: NodeJS.ErrnoException) => {
        // Another process (a start check settling left entries) renamed it first.
        if (error.code !== 'ENOENT' || !(await stat(fileOf(entry, '.json')).catch(() => undefined))) throw error;
      });
      await syncDirectory(join(directory, monthOf(entry.erased_at)));
    },

    async discard(entry) {
      await unlink(fileOf(entry, '.pending')).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
    },

    async entries(month, since) {
      const from = since ? stamp(since.toISOString()) : '';
      const names = (await namesIn(join(directory, month)))
        .filter((name) => name.endsWith('.json') && name >= from)
        .sort();
      return readAll(names.map((name) => join(directory, month, name)));
    },

    async prepared(month) {
      const found: { entry: JournalEntry; writtenAt: Date }[] = [];
      for (const name of await namesIn(join(directory, month))) {
        if (!name.endsWith('.pending')) continue;
        const path = join(directory, month, name);
        try {
          const writtenAt = (await stat(path)).mtime;
          found.push({ entry: JSON.parse(await readFile(path, 'utf8')) as JournalEntry, writtenAt });
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error; // settled meanwhile
        }
      }
      return found;
    },
  };
}
