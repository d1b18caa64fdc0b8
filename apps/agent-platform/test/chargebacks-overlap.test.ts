// Issue 33, item 1: the `chargebacks` job run twice at once (a manual run during the scheduled one, or a
// stalled job taken over by a second worker) settles each account's month once: one settlement and
// internal invoice per team, one event each, each PDF enqueued once, every record claimed once, and
// neither run fails. The overlap is forced: a transaction holds the accounts' chargeback locks while
// both runs start, so both find the accounts due and queue on them.
import { createTenant, whileHeld, type Tenant } from '@platform/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobQueue } from '@platform/service';
import { CHARGEBACKS_JOB, type SettlementOutcome } from '../src/chargebacks/index.js';
import { agentPlatformDescriptor } from '../src/descriptor.js';
import { startAgentPlatformApp, validAgent, type AgentPlatformTestContext } from './helpers.js';

let ctx: AgentPlatformTestContext;
const tenants: Tenant[] = [];
const RECORDS = 3; // per account: two for team Ops, one for Finance
beforeAll(async () => {
  ctx = await startAgentPlatformApp();
  // This database's only accounts with agents (the harness's two tenants have none).
  for (let i = 0; i < 2; i++) {
    const tenant = await createTenant(ctx.db.prisma, { service: agentPlatformDescriptor });
    await ctx.db.prisma.account.update({ where: { id: tenant.accountId }, data: { time_zone: 'Europe/Berlin' } });
    ctx.clock.now = new Date('2026-10-20T08:00:00Z');
    const agent = (await ctx.send('POST', '/v1/agents', validAgent(), tenant.key)).json().id as string;
    ctx.clock.now = new Date('2026-11-20T08:00:00Z');
    const records = ['Ops', 'Ops', 'Finance'].map((team, n) => ({
      client_id: `overlap-${n}`,
      team,
      quantity: 1.5,
      unit: 'per_1k_tokens',
      occurred_at: '2026-11-10T10:00:00Z',
    }));
    expect((await ctx.send('POST', `/v1/agents/${agent}/usage`, { records }, tenant.key)).json()).toEqual({
      accepted: RECORDS,
      duplicates: 0,
    });
    tenants.push(tenant);
  }
});
afterAll(() => ctx.close());

type Outcome = SettlementOutcome & { not_enqueued: number };

describe('overlapping chargebacks runs', () => {
  it('two scheduled runs that both find the accounts due settle each once, report each as settled once, and both succeed', async () => {
    const enqueued: string[] = [];
    const jobs: JobQueue = { enqueue: async (_job, _payload, jobId) => void enqueued.push(jobId) };
    const run = () =>
      CHARGEBACKS_JOB.run(
        { db: ctx.db.prisma, now: new Date('2026-12-01T07:00:00Z'), storage: ctx.storage, sandbox: ctx.sandbox, jobs },
        {},
      ) as Promise<{ settled: Outcome[]; refused: unknown[] }>;
    const { result, waited } = await whileHeld(
      ctx.db,
      async (tx) => {
        for (const tenant of tenants)
          await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`chargebacks:${tenant.accountId}`}, 0))`;
      },
      () => Promise.all([run(), run()]),
      2,
    );
    expect(waited).toBe(2);
    const outcomes = result.flatMap((r) => r.settled);
    for (const tenant of tenants) {
      const own = outcomes.filter((o) => o.account_id === tenant.accountId && o.period === '2026-11');
      // Each run found the account due; one settled it, the other found it done (and says so).
      expect(own.map((o) => o.outcome).sort()).toEqual(['already_settled', 'settled']);
      const settled = own.find((o) => o.outcome === 'settled')!;
      expect(settled).toMatchObject({ records: RECORDS, settlements: 2 });
      expect(own.find((o) => o.outcome === 'already_settled')!.internal_invoice_ids).toEqual([]);
      const where = { account_id: tenant.accountId, period: '2026-11' };
      expect(await ctx.db.prisma.chargebackSettlement.count({ where })).toBe(2);
      expect(await ctx.db.prisma.internalInvoice.count({ where })).toBe(2);
      expect(
        await ctx.db.prisma.chargebackRun.findMany({ where, select: { records: true, settlements: true } }),
      ).toEqual([{ records: RECORDS, settlements: 2 }]);
      expect(
        await ctx.db.prisma.outboxEvent.count({ where: { account_id: tenant.accountId, type: 'settlement.created' } }),
      ).toBe(2);
      expect(
        await ctx.db.prisma.usageRecord.count({ where: { account_id: tenant.accountId, settled_in: '2026-11' } }),
      ).toBe(RECORDS);
    }
    // What the runs say they settled adds up to what was settled: every record and invoice once.
    const settled = outcomes.filter((o) => o.outcome === 'settled');
    expect(settled.reduce((sum, o) => sum + o.records, 0)).toBe(RECORDS * tenants.length);
    const invoiceIds = settled.flatMap((o) => o.internal_invoice_ids);
    expect(invoiceIds).toHaveLength(2 * tenants.length);
    expect(enqueued).toHaveLength(invoiceIds.length); // each PDF enqueued once, by the run that settled it
    expect(new Set(enqueued).size).toBe(enqueued.length);
  });
});
