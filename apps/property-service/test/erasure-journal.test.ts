// The erasure journal's life cycle (issue 37 review): an entry counts only once its erasure's
// transaction committed; entries left prepared by a stopped process are settled by the start check;
// the start check reads back to the newest month whose erasure records are all in the database;
// lookups are scoped by account.
import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '@platform/runtime';
import { startTestApp } from '@platform/testkit';
import { buildPropertyApp } from '../src/app.js';
import { endViewingsReporting } from '../src/forgotten-viewings.js';
import { propertyDescriptor } from '../src/descriptor.js';
import {
  createErasureJournal,
  pendingErasuresRefusal,
  reapplyErasures,
  type ErasureJournal,
  type JournalEntry,
} from '../src/leads/erasure-audit/index.js';
import type { PropertyTestContext } from './helpers.js';

let ctx: PropertyTestContext;
let root: string;
let journalDir: string;
let journal: ErasureJournal;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'erasure-journal-'));
  journalDir = join(root, 'app');
  journal = createErasureJournal(journalDir);
  ctx = await startTestApp(propertyDescriptor, (deps) => buildPropertyApp({ ...deps, erasureJournal: journal }));
});
afterAll(async () => {
  await ctx.close();
  await rm(root, { recursive: true, force: true });
});

/** The journal's entries, as `<month>/<name>`, prepared and committed ones. */
async function filesOf(directory: string): Promise<string[]> {
  const names = await readdir(directory, { recursive: true }).catch(() => [] as string[]);
  return names.filter((name) => /\.(json|pending)$/.test(name)).sort();
}

async function created(n: number, at = '2026-12-05T10:00:00Z'): Promise<string> {
  ctx.clock.now = new Date(at);
  const person = {
    nachname: `Journal${n}`,
    email: `journal${n}@example.de`,
    einwilligung: { zweck: 'Kontakt', erteilt_am: '2026-01-01T10:00:00Z' },
  };
  const response = await ctx.send('POST', '/leads/v1/interessenten', person);
  expect(response.statusCode).toBe(201);
  return response.json().id as string;
}

const entryOf = (prospectId: string, erasedAt: string, recordId: string, accountId = ctx.tenant.accountId) =>
  ({
    record_id: recordId,
    account_id: accountId,
    prospect_id: prospectId,
    erased_at: erasedAt,
    requested_by: 'cli',
    application_id: null,
    key_id: null,
  }) satisfies JournalEntry;

async function committed(into: ErasureJournal, entry: JournalEntry) {
  await into.prepare(entry);
  await into.commit(entry);
}

it('an erasure whose transaction fails at its commit leaves no journal entry, and the services may start', async () => {
  const id = await created(1);
  // The audit record's insert is refused at COMMIT, after the journal entry was written.
  await ctx.db.query(`CREATE FUNCTION refuse_at_commit() RETURNS trigger LANGUAGE plpgsql
                        AS $$ BEGIN RAISE EXCEPTION 'refused at commit'; END $$`);
  await ctx.db.query(`CREATE CONSTRAINT TRIGGER refuse_at_commit AFTER INSERT ON erasure_records
                        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION refuse_at_commit()`);
  try {
    expect((await ctx.send('POST', `/leads/v1/interessenten/${id}/loeschung`, {})).statusCode).toBe(500);
  } finally {
    await ctx.db.query('DROP TRIGGER refuse_at_commit ON erasure_records');
    await ctx.db.query('DROP FUNCTION refuse_at_commit()');
  }
  expect(await filesOf(journalDir)).toEqual([]);
  expect(await pendingErasuresRefusal(ctx.db.prisma, journal, new Date())).toBeUndefined();
  expect((await ctx.send('GET', `/leads/v1/interessenten/${id}`)).json().email).toBe('journal1@example.de');

  // Committed: the entry counts, in the folder of its month.
  expect((await ctx.send('POST', `/leads/v1/interessenten/${id}/loeschung`, {})).statusCode).toBe(200);
  expect(await filesOf(journalDir)).toEqual([
    expect.stringMatching(/^2026-12\/2026-12-05T10-00-00\.000Z_loe_\w+\.json$/),
  ]);
});

it('the start check settles entries left prepared: committed or old ones count, young ones wait', async () => {
  const directory = join(root, 'left');
  const left = createErasureJournal(directory);
  // Committed, but its process stopped before the rename: its record is in the database.
  const erased = await created(2, '2026-12-06T10:00:00Z');
  expect((await ctx.send('POST', `/leads/v1/interessenten/${erased}/loeschung`, {})).statusCode).toBe(200);
  const [record] = await ctx.db.query<{ id: string }>('SELECT id FROM erasure_records WHERE prospect_id = $1', [
    erased,
  ]);
  await left.prepare(entryOf(erased, '2026-12-06T10:00:00.000Z', record!.id));
  // One written just now without its record: its transaction may still run elsewhere.
  await left.prepare(entryOf(await created(4), '2026-12-06T12:00:00.000Z', 'loe_inflight'));
  expect(await pendingErasuresRefusal(ctx.db.prisma, left, new Date())).toBeUndefined();
  expect(await filesOf(directory)).toEqual([
    `2026-12/2026-12-06T10-00-00.000Z_${record!.id}.json`,
    '2026-12/2026-12-06T12-00-00.000Z_loe_inflight.pending',
  ]);

  // Left 20 minutes ago without its record: rolled back, or committed and lost to a restore. The
  // person asked to be erased: it counts, and the start waits for the re-application.
  const unknown = await created(3);
  await left.prepare(entryOf(unknown, '2026-12-06T11:00:00.000Z', 'loe_unknown'));
  const twentyMinutesAgo = new Date(Date.now() - 20 * 60_000);
  await utimes(
    join(directory, '2026-12', '2026-12-06T11-00-00.000Z_loe_unknown.pending'),
    twentyMinutesAgo,
    twentyMinutesAgo,
  );
  expect(await pendingErasuresRefusal(ctx.db.prisma, left, new Date())).toMatch(/^1 recorded erasure\(s\) are missing/);
  expect(await filesOf(directory)).toContain('2026-12/2026-12-06T11-00-00.000Z_loe_unknown.json');
  expect((await reapplyErasures(ctx.db.prisma, left, endViewingsReporting, new Date())).reapplied).toBe(1);
  expect((await ctx.send('GET', `/leads/v1/interessenten/${unknown}`)).json().email).toBeNull();
});

/** A real erasure at `at` (its record in the database), also committed to `into`. */
async function erasedWithRecord(into: ErasureJournal, n: number, at: string): Promise<void> {
  const id = await created(n, at);
  expect((await ctx.send('POST', `/leads/v1/interessenten/${id}/loeschung`, {})).statusCode).toBe(200);
  const [record] = await ctx.db.query<{ id: string }>('SELECT id FROM erasure_records WHERE prospect_id = $1', [id]);
  await committed(into, entryOf(id, new Date(at).toISOString(), record!.id));
}

it('the check walks back while a month lacks an erasure record, even one of a prospect the backup never had', async () => {
  const directory = join(root, 'missing');
  const missing = createErasureJournal(directory);
  // Backup of Nov 20; Nov 25: A (in the backup) erased; Dec 3: B (created Nov 28) erased. Restored:
  // A holds their data again, B does not exist, neither record is there.
  const a = await created(8, '2026-11-20T09:00:00Z');
  await committed(missing, entryOf(a, '2026-11-25T10:00:00.000Z', 'loe_a'));
  await committed(missing, entryOf('int_b_after_backup', '2026-12-03T10:00:00.000Z', 'loe_b'));
  expect(await pendingErasuresRefusal(ctx.db.prisma, missing, new Date())).toMatch(
    /^1 recorded erasure\(s\) are missing/,
  );

  expect(await reapplyErasures(ctx.db.prisma, missing, endViewingsReporting, new Date())).toMatchObject({
    recorded: 2,
    reapplied: 1,
  });
  // B's record is back (nothing was erased now: counts 0), so December counts as settled.
  expect(
    await ctx.db.query('SELECT prospect_id, inquiries_count, created_at FROM erasure_records WHERE id = $1', ['loe_b']),
  ).toEqual([{ prospect_id: 'int_b_after_backup', inquiries_count: 0, created_at: new Date('2026-12-03T10:00:00Z') }]);
  expect(await pendingErasuresRefusal(ctx.db.prisma, missing, new Date())).toBeUndefined();
  expect((await ctx.send('GET', `/leads/v1/interessenten/${a}`)).json().email).toBeNull();
});

it('the start check stops at the newest month with every record, reading the last minutes before it; the command reads all', async () => {
  const directory = join(root, 'months');
  const months = createErasureJournal(directory);
  // January: an erasure of a prospect the database does not have, without its record: read on.
  await committed(months, entryOf('int_gone', '2027-01-04T09:00:00.000Z', 'loe_gone'));
  // December: an undone erasure. November: one erased for good (its record there): the walk stops.
  const december = await created(5, '2026-12-20T10:00:00Z');
  await committed(months, entryOf(december, '2026-12-20T10:00:00.000Z', 'loe_december'));
  await erasedWithRecord(months, 9, '2026-11-15T10:00:00Z');
  // October, undone: one in its last minutes (read) and one far from November (not read by the check).
  const late = await created(6, '2026-10-31T23:55:00Z');
  const early = await created(10, '2026-10-20T10:00:00Z');
  await committed(months, entryOf(late, '2026-10-31T23:55:00.000Z', 'loe_late'));
  await committed(months, entryOf(early, '2026-10-20T10:00:00.000Z', 'loe_early'));
  // Not even opened by the check: a broken file among the older entries of October.
  const broken = join(directory, '2026-10', '2026-10-01T00-00-00.000Z_loe_broken.json');
  await writeFile(broken, '{ not json');

  expect(await pendingErasuresRefusal(ctx.db.prisma, months, new Date())).toBe(
    '2 recorded erasure(s) are missing from the database (restored from a backup?): ' +
      'run `pnpm cli erasures reapply` before starting the services.',
  );
  await expect(reapplyErasures(ctx.db.prisma, months, endViewingsReporting, new Date())).rejects.toThrow(SyntaxError);
  await rm(broken);
  const result = await reapplyErasures(ctx.db.prisma, months, endViewingsReporting, new Date());
  // December's was re-applied already, before the broken file stopped the first run.
  expect(result).toMatchObject({ recorded: 5, reapplied: 2 });
  expect(await pendingErasuresRefusal(ctx.db.prisma, months, new Date())).toBeUndefined();
  for (const id of [december, late, early])
    expect((await ctx.send('GET', `/leads/v1/interessenten/${id}`)).json().email).toBeNull();
});

it('the check settles entries left prepared in every month it walks, by the clock it is given', async () => {
  const directory = join(root, 'older');
  const older = createErasureJournal(directory);
  await committed(older, entryOf('int_gone_jan', '2027-01-04T09:00:00.000Z', 'loe_gone_jan'));
  await committed(older, entryOf('int_gone_dec', '2026-12-04T09:00:00.000Z', 'loe_gone_dec'));
  // Three months back, left prepared by a process that stopped, its record lost to the restore.
  const left = await created(11, '2026-11-10T10:00:00Z');
  await older.prepare(entryOf(left, '2026-11-10T10:00:00.000Z', 'loe_left'));
  expect(await pendingErasuresRefusal(ctx.db.prisma, older, new Date())).toBeUndefined(); // just written: may be in flight
  const twentyMinutesOn = new Date(Date.now() + 20 * 60_000);
  expect(await pendingErasuresRefusal(ctx.db.prisma, older, twentyMinutesOn)).toMatch(/^1 recorded erasure\(s\)/);
  expect(await filesOf(directory)).toContain('2026-11/2026-11-10T10-00-00.000Z_loe_left.json');
});

it('an entry naming another account never matches this account’s prospect of the same id', async () => {
  const directory = join(root, 'accounts');
  const other = createErasureJournal(directory);
  const id = await created(7, '2026-12-08T10:00:00Z');
  await committed(other, entryOf(id, '2026-12-08T10:00:00.000Z', 'loe_other', 'acct_someone_else'));
  expect(await pendingErasuresRefusal(ctx.db.prisma, other, new Date())).toBeUndefined();
  expect((await reapplyErasures(ctx.db.prisma, other, endViewingsReporting, new Date())).reapplied).toBe(0);
  expect((await ctx.send('GET', `/leads/v1/interessenten/${id}`)).json().email).toBe('journal7@example.de');
});

it('the service declares its journal directory: ERASURE_JOURNAL_DIR, by default DATA_DIR/erasure-journal', () => {
  const secrets = { API_KEY_PEPPER: 'p'.repeat(32), WEBHOOK_SECRET_KEY: 'a'.repeat(64) };
  const directoryOf = (env: Record<string, string>) =>
    loadConfig({ ...secrets, ...env }, root, [propertyDescriptor]).services.property?.directories.erasureJournalDir;
  expect(directoryOf({ DATA_DIR: 'state' })).toBe(join(root, 'state', 'erasure-journal'));
  expect(directoryOf({ DATA_DIR: 'state', ERASURE_JOURNAL_DIR: '/mnt/shared/erasures' })).toBe('/mnt/shared/erasures');
});
