import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, readdir, rename } from 'node:fs/promises';
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
 * The erasures, kept outside the database (a database restore does not roll them back): one file
 * per erasure, named `<erased_at>_<record_id>.json` so that names sort by time and the tail after a
 * given time is found from the names alone.
 */
export interface ErasureJournal {
  append(entry: JournalEntry): Promise<void>;
  /** The entries erased at or after `since` (all without it), oldest first. */
  entries(since?: Date): Promise<JournalEntry[]>;
}

const DIR_MODE = 0o700;
const FILE_MODE = 0o600;
/** `2026-11-28T01:02:03.456Z` with `:` replaced: a valid file name on every file system, same order. */
const stamp = (iso: string) => iso.replaceAll(':', '-');

/** The journal in a directory (`DATA_DIR/erasure-journal`); created 0700 when missing. */
export function createErasureJournal(directory: string): ErasureJournal {
  const temporary = join(directory, '.tmp');
  return {
    async append(entry) {
      await mkdir(temporary, { recursive: true, mode: DIR_MODE });
      const part = join(temporary, `${randomUUID()}.part`);
      // Flushed to disk, then renamed into place: a crash leaves no half-written entry.
      const file = await open(part, 'wx', FILE_MODE);
      try {
        await file.writeFile(`${JSON.stringify(entry)}\n`);
        await file.sync();
      } finally {
        await file.close();
      }
      await rename(part, join(directory, `${stamp(entry.erased_at)}_${entry.record_id}.json`));
    },

    async entries(since) {
      let names: string[];
      try {
        names = await readdir(directory);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      }
      const from = since ? stamp(since.toISOString()) : '';
      const wanted = names.filter((name) => name.endsWith('.json') && name >= from).sort();
      const entries: JournalEntry[] = [];
      for (const name of wanted) {
        entries.push(JSON.parse(await readFile(join(directory, name), 'utf8')) as JournalEntry);
      }
      return entries;
    },
  };
}
