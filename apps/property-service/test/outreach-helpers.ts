import { OUTREACH_JOB } from '../src/leads/outreach/index.js';
import type { PropertyTestContext } from './helpers.js';

export const TREFFER = 'prospect.matched';

/** Scores 100 against an apartment in Berlin with 3 rooms, 80 m² and 400,000 €. */
export const SUCHPROFIL = { typ: ['apartment'], orte: ['Berlin'], zimmer_min: 3, kaufpreis_max_eur: 400000 };

/** A prospect with a marketing consent and the search profile; resolves to its id. */
export async function prospectWith(
  ctx: PropertyTestContext,
  name: string,
  suchprofil: Record<string, unknown> = SUCHPROFIL,
  key = ctx.tenant.key,
): Promise<string> {
  const res = await ctx.send(
    'POST',
    '/leads/v1/interessenten',
    {
      // A name, not a word: the run's log audit flags any personal value found in a log line, and
      // a nachname like `restricted` is also part of the event type `prospect.restricted`.
      nachname: `Nachname-${name}`,
      email: `${name.toLowerCase()}@example.de`,
      einwilligung: { zweck: 'Kontakt', erteilt_am: '2026-11-01T10:00:00Z' },
      suchprofil,
    },
    key,
  );
  if (res.statusCode !== 201) throw new Error(`prospect not created: ${res.statusCode} ${res.body}`);
  return res.json().id as string;
}

export interface RunRow {
  id: string;
  reason: string;
  completed_at: Date | null;
  announced: number;
  dropped: number;
}

/** The outreach runs recorded for the property, oldest first. */
export const outreachRunsOf = (ctx: PropertyTestContext, propertyId: string) =>
  ctx.db.query<RunRow & Record<string, unknown>>(
    'SELECT id, reason, completed_at, announced, dropped FROM outreach_runs WHERE property_id = $1 ORDER BY created_at, id',
    [propertyId],
  );

/** Runs the property's open outreach runs now, as the worker would (no worker needed); resolves to the sums. */
export async function runOpenOutreach(ctx: PropertyTestContext, propertyId: string) {
  const sums = { announced: 0, dropped: 0 };
  for (const run of await outreachRunsOf(ctx, propertyId)) {
    if (run.completed_at) continue;
    const result = await runOutreachJob(ctx, run.id);
    sums.announced += result.announced as number;
    sums.dropped += result.dropped as number;
  }
  return sums;
}

/** The `outreach` job of one run, run here. */
export const runOutreachJob = (ctx: PropertyTestContext, runId: string) =>
  OUTREACH_JOB.run(
    { db: ctx.db.prisma, now: ctx.clock.now, storage: ctx.storage, sandbox: ctx.sandbox, jobs: ctx.jobs },
    { run_id: runId },
  );
