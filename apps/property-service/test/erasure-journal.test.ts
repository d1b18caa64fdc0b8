// The erasure journal's life cycle (issue 37 review): an entry counts only once its erasure's
// transaction committed; entries left prepared by a stopped process are settled by the start check;
// the start check reads the newest months only; lookups are scoped by account.
import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
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
  expect(await pendingErasuresRefusal(ctx.db.prisma, journal)).toBeUndefined();
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
  expect(await pendingErasuresRefusal(ctx.db.prisma, left)).toBeUndefined();
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
  expect(await pendingErasuresRefusal(ctx.db.prisma, left)).toMatch(/^1 recorded erasure\(s\) are missing/);
  expect(await filesOf(directory)).toContain('2026-12/2026-12-06T11-00-00.000Z_loe_unknown.json');
  expect(
    (await reapplyErasures(ctx.db.prisma, left, endViewingsReporting, new Date('2026-12-07T00:00:00Z'))).reapplied,
  ).toBe(1);
  expect((await ctx.send('GET', `/leads/v1/interessenten/${unknown}`)).json().email).toBeNull();
});

it('the start check reads months newest first and stops at the first with nothing undone; the command reads all', async () => {
  const directory = join(root, 'months');
  const months = createErasureJournal(directory);
  // December: an erasure of a prospect the database no longer has (a database without any erasure record).
  await committed(months, entryOf('int_gone', '2026-12-01T09:00:00.000Z', 'loe_gone'));
  // November, undone by a restore: one far from December (not read by the check) and one in its last minutes.
  const early = await created(5, '2026-11-20T10:00:00Z');
  const late = await created(6, '2026-11-30T23:55:00Z');
  await committed(months, entryOf(early, '2026-11-20T10:00:00.000Z', 'loe_early'));
  await committed(months, entryOf(late, '2026-11-30T23:55:00.000Z', 'loe_late'));
  // Not even opened by the check: a broken file among the older entries of November.
  const broken = join(directory, '2026-11', '2026-11-01T00-00-00.000Z_loe_broken.json');
  await writeFile(broken, '{ not json');

  expect(await pendingErasuresRefusal(ctx.db.prisma, months)).toBe(
    '1 recorded erasure(s) are missing from the database (restored from a backup?): ' +
      'run `pnpm cli erasures reapply` before starting the services.',
  );
  await expect(reapplyErasures(ctx.db.prisma, months, endViewingsReporting, new Date())).rejects.toThrow(SyntaxError);
  await rm(broken);
  const result = await reapplyErasures(ctx.db.prisma, months, endViewingsReporting, new Date('2026-12-07T00:00:00Z'));
  expect(result).toMatchObject({ recorded: 3, reapplied: 2 });
  expect(await pendingErasuresRefusal(ctx.db.prisma, months)).toBeUndefined();
  for (const id of [early, late])
    expect((await ctx.send('GET', `/leads/v1/interessenten/${id}`)).json().email).toBeNull();
});

it('an entry naming another account never matches this account’s prospect of the same id', async () => {
  const directory = join(root, 'accounts');
  const other = createErasureJournal(directory);
  const id = await created(7, '2026-12-08T10:00:00Z');
  await committed(other, entryOf(id, '2026-12-08T10:00:00.000Z', 'loe_other', 'acct_someone_else'));
  expect(await pendingErasuresRefusal(ctx.db.prisma, other)).toBeUndefined();
  expect((await reapplyErasures(ctx.db.prisma, other, endViewingsReporting, new Date())).reapplied).toBe(0);
  expect((await ctx.send('GET', `/leads/v1/interessenten/${id}`)).json().email).toBe('journal7@example.de');
});
