// `prospect erase`: an erasure the operator was asked for outside the API, the same as the API's
// `loeschung`, logged as requested by `cli` and journaled in ERASURE_JOURNAL_DIR.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildPropertyApp, propertyDescriptor } from '@platform/property-service';
import { createTenant, startTestApp, type TestApp } from '@platform/testkit';
import { runCli } from '../src/run.js';
import { cliContext } from './cli-context.js';

let ctx: TestApp;
let journalDir: string;
beforeAll(async () => {
  journalDir = await mkdtemp(join(tmpdir(), 'erasure-cli-'));
  ctx = await startTestApp(propertyDescriptor, buildPropertyApp);
});
afterAll(async () => {
  await ctx.close();
  await rm(journalDir, { recursive: true, force: true });
});

const NOW = new Date('2026-12-03T09:30:00.000Z');
const cli = (line: string) =>
  runCli(line.split(' '), async () => cliContext(ctx.db, { now: () => NOW, erasureJournalDir: journalDir }));

it('erases the prospect, logs it as requested by cli, journals it; another account’s prospect is not found', async () => {
  const created = await ctx.send('POST', '/leads/v1/interessenten', {
    nachname: 'Brief',
    email: 'brief@example.de',
    einwilligung: { zweck: 'Kontakt', erteilt_am: '2026-01-01T10:00:00Z' },
  });
  const id = created.json().id as string;
  const other = await createTenant(ctx.db.prisma, { service: propertyDescriptor });

  const refused = await cli(`prospect erase ${id} --account ${other.accountId} --json`);
  expect(refused).toEqual({
    exitCode: 1,
    output: JSON.stringify({ error: `No prospect ${id} in account ${other.accountId}.` }),
  });
  expect((await ctx.send('GET', `/leads/v1/interessenten/${id}`)).json().email).toBe('brief@example.de');

  const erased = await cli(`prospect erase ${id} --account ${ctx.tenant.accountId} --json`);
  expect(JSON.parse(erased.output)).toEqual({ id, account_id: ctx.tenant.accountId, erased_at: NOW.toISOString() });
  expect((await ctx.send('GET', `/leads/v1/interessenten/${id}`)).json()).toMatchObject({
    email: null,
    anonymisiert: true,
  });
  expect((await ctx.send('GET', '/leads/v1/loeschprotokoll')).json().daten).toEqual([
    expect.objectContaining({
      interessent_id: id,
      art: 'loeschung',
      veranlasst_durch: { art: 'cli', anwendung_id: null, key_id: null },
    }),
  ]);
  expect((await readdir(join(journalDir, '2026-12'))).filter((name) => name.endsWith('.json'))).toHaveLength(1);
  // Repeating it is harmless: nothing new is logged or journaled.
  expect((await cli(`prospect erase ${id} --account ${ctx.tenant.accountId}`)).exitCode).toBe(0);
  expect((await readdir(join(journalDir, '2026-12'))).filter((name) => name.endsWith('.json'))).toHaveLength(1);
});

it('erasures reapply takes no directory: the journal is ERASURE_JOURNAL_DIR, as the services read it', async () => {
  expect(await cli('erasures reapply /var/lib/platform')).toEqual({
    exitCode: 2,
    output: 'Error: erasures reapply takes no argument: it reads ERASURE_JOURNAL_DIR, as the services do.',
  });
});
