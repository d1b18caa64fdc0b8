// endViewingsReporting (the erasure audit's count of cancelled viewings) reads and cancels the
// forgotten prospects' viewings within their own account only.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { inTransaction } from '@platform/db';
import { endViewingsReporting } from '../src/forgotten-viewings.js';
import { activeProperty, createInquiry, startPropertyApp, type PropertyTestContext } from './helpers.js';

let ctx: PropertyTestContext;
beforeAll(async () => {
  ctx = await startPropertyApp();
  ctx.clock.now = new Date('2026-11-20T10:00:00Z');
});
afterAll(() => ctx.close());

async function viewing(key: string, day: string) {
  const inquiry = await createInquiry(ctx, await activeProperty(ctx, key), { key });
  const res = await ctx.send(
    'POST',
    '/v1/appointments',
    { inquiry_id: inquiry.id, starts_at: `${day}T09:00:00Z`, ends_at: `${day}T10:00:00Z` },
    key,
  );
  expect(res.statusCode).toBe(201);
  return { prospectId: inquiry.prospectId, appointmentId: res.json().id as string };
}

it("reports and cancels only the viewings of the prospect's own account, not another account's row naming the same id", async () => {
  const mine = await viewing(ctx.tenant.key, '2027-01-20');
  const theirs = await viewing(ctx.other.key, '2027-01-21'); // another day: one prospect id has one viewing at a time
  // another account's appointment carrying the same prospect id (ids are not tied across accounts)
  await ctx.db.query('UPDATE appointments SET prospect_id = $1 WHERE id = $2', [mine.prospectId, theirs.appointmentId]);
  const reported = await inTransaction(ctx.db.prisma, (tx) =>
    endViewingsReporting(tx, ctx.tenant.accountId, [mine.prospectId], 'erased', ctx.clock.now),
  );
  expect(reported).toEqual([{ prospect_id: mine.prospectId }]);
  const [own] = await ctx.db.query<{ status: string }>('SELECT status FROM appointments WHERE id = $1', [
    mine.appointmentId,
  ]);
  expect(own?.status).toBe('cancelled');
  const [other] = await ctx.db.query<{ status: string }>('SELECT status FROM appointments WHERE id = $1', [
    theirs.appointmentId,
  ]);
  expect(other?.status).not.toBe('cancelled');
});
