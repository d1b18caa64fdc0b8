// ERASURE_JOURNAL_DIR: the erasure journal's directory, by default under DATA_DIR; set, it may be a
// shared volume apart from DATA_DIR (every instance, the worker and the CLI must name the same one).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';

const cwd = mkdtempSync(join(tmpdir(), 'journal-config-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));
// Given secrets: nothing is generated into DATA_DIR.
const secrets = { API_KEY_PEPPER: 'p'.repeat(32), WEBHOOK_SECRET_KEY: 'a'.repeat(64) };

it('defaults to DATA_DIR/erasure-journal, resolved from the working directory', () => {
  expect(loadConfig({ ...secrets, DATA_DIR: 'state' }, cwd).erasureJournalDir).toBe(
    join(cwd, 'state', 'erasure-journal'),
  );
});

it('is the directory ERASURE_JOURNAL_DIR names, whatever DATA_DIR is', () => {
  const config = loadConfig({ ...secrets, DATA_DIR: 'state', ERASURE_JOURNAL_DIR: '/mnt/shared/erasures' }, cwd);
  expect(config.erasureJournalDir).toBe('/mnt/shared/erasures');
  expect(loadConfig({ ...secrets, ERASURE_JOURNAL_DIR: 'journal' }, cwd).erasureJournalDir).toBe(join(cwd, 'journal'));
});
