// The start check and the re-application of erasures (issue 37), on one database: a "restore" is
// simulated by putting a prospect's personal data back and dropping its erasure record, as a
// restored dump has them. The real dump and restore: apps/worker/test/erasure-restore.test.ts.
import { mkdtemp, rm } from 'node:fs/promises';
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
} from '../src/leads/erasure-audit/index.js';
import type { PropertyTestContext } from './helpers.js';

let ctx: PropertyTestContext;
let journalDir: string;
let journal: ErasureJournal;
beforeAll(async () => {
  journalDir = await mkdtemp(join(tmpdir(), 'erasure-journal-'));
  journal = createErasureJournal(journalDir);
  ctx = await startTestApp(propertyDescriptor, (deps) => buildPropertyApp({ ...deps, erasureJournal: journal }));
});
afterAll(async () => {
  await ctx.close();
  await rm(journalDir, { recursive: true, force: true });
});

const person = (n: number) => ({
  nachname: `Zurueck${n}`,
  email: `zurueck${n}@example.de`,
  einwilligung: { zweck: 'Kontakt', erteilt_am: '2026-01-01T10:00:00Z' },
});

async function erasedAt(n: number, at: string): Promise<string> {
  ctx.clock.now = new Date(at);
  const id = (await ctx.send('POST', '/leads/v1/interessenten', person(n))).json().id as string;
  expect((await ctx.send('POST', `/leads/v1/interessenten/${id}/loeschung`, {})).statusCode).toBe(200);
  return id;
}

/** What a dump taken before the erasure brings back. */
async function restoredFromBefore(n: number, id: string, dropRecord = true) {
  await ctx.db.query(`UPDATE prospects SET last_name = $2, email = $3, anonymised_at = NULL WHERE id = $1`, [
    id,
    person(n).nachname,
    person(n).email,
  ]);
  if (dropRecord) await ctx.db.query('DELETE FROM erasure_records WHERE prospect_id = $1', [id]);
}

it('refuses the start while an erasure of the journal is undone, and re-applies it with its first time and record', async () => {
  const db = ctx.db.prisma;
  const id = await erasedAt(1, '2026-12-10T10:00:00Z');
  expect(await pendingErasuresRefusal(db, journal, ctx.clock.now)).toBeUndefined();
  const [record] = await ctx.db.query<{ id: string }>('SELECT id FROM erasure_records WHERE prospect_id = $1', [id]);

  await restoredFromBefore(1, id);
  expect(await pendingErasuresRefusal(db, journal, ctx.clock.now)).toBe(
    '1 recorded erasure(s) are missing from the database (restored from a backup?): ' +
      'run `pnpm cli erasures reapply` before starting the services.',
  );

  const now = new Date('2026-12-11T08:00:00Z');
  const result = await reapplyErasures(db, journal, endViewingsReporting, now);
  expect(result).toMatchObject({ reapplied: 1, anonymised: 0 });
  expect(await pendingErasuresRefusal(db, journal, ctx.clock.now)).toBeUndefined();
  expect((await ctx.send('GET', `/leads/v1/interessenten/${id}`)).json()).toMatchObject({
    nachname: null,
    email: null,
    anonymisiert: true,
  });
  const log = (await ctx.send('GET', '/leads/v1/loeschprotokoll')).json().daten;
  expect(log.filter((r: { interessent_id: string }) => r.interessent_id === id)).toEqual([
    expect.objectContaining({
      id: record!.id,
      zeitpunkt: '2026-12-10T10:00:00.000Z',
      erneut_angewendet_am: now.toISOString(),
    }),
  ]);
  expect((await reapplyErasures(db, journal, endViewingsReporting, now)).reapplied).toBe(0);
});

it('the start check stops at the newest month with every erasure record; the command reads every month', async () => {
  const db = ctx.db.prisma;
  const older = await erasedAt(2, '2026-11-12T10:00:00Z');
  await erasedAt(3, '2026-12-12T11:00:00Z');
  // An erasure of November undone while December's records are all in the database: no restore
  // does that, and the check (cheap, the newest months only) does not see it; the command still finds it.
  await restoredFromBefore(2, older, false);
  expect(await pendingErasuresRefusal(db, journal, ctx.clock.now)).toBeUndefined();
  expect((await reapplyErasures(db, journal, endViewingsReporting, new Date('2026-12-13T00:00:00Z'))).reapplied).toBe(
    1,
  );
  expect((await ctx.send('GET', `/leads/v1/interessenten/${older}`)).json().email).toBeNull();
});
