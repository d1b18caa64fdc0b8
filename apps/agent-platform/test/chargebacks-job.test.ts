import { createTenant, type Tenant } from '@platform/testkit';
import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHARGEBACKS_JOB } from '../src/chargebacks/index.js';
import { agentPlatformDescriptor } from '../src/descriptor.js';
import { AGENT_PLATFORM_JOBS } from '../src/jobs.js';
import { startAgentPlatformApp, validAgent, type AgentPlatformTestContext } from './helpers.js';

let ctx: AgentPlatformTestContext;
let berlin: Tenant;
let newYork: Tenant;
beforeAll(async () => {
  ctx = await startAgentPlatformApp();
  // This database's only accounts with agents: Berlin and New York (the harness's two tenants have none).
  berlin = await account('Europe/Berlin');
  newYork = await account('America/New_York');
  for (const tenant of [berlin, newYork]) {
    ctx.clock.now = new Date('2026-10-20T08:00:00Z');
    const agent = (await ctx.send('POST', '/v1/agents', validAgent(), tenant.key)).json().id as string;
    ctx.clock.now = new Date('2026-11-20T08:00:00Z');
    const records = ['Ops', 'Finance'].map((team, i) => ({
      client_id: `job-${i}`,
      team,
      quantity: 1.5,
      unit: 'per_1k_tokens',
      occurred_at: '2026-11-10T10:00:00Z',
    }));
    expect((await ctx.send('POST', `/v1/agents/${agent}/usage`, { records }, tenant.key)).json()).toEqual({
      accepted: 2,
      duplicates: 0,
    });
  }
});
afterAll(() => ctx.close());

async function account(timeZone: string): Promise<Tenant> {
  const tenant = await createTenant(ctx.db.prisma, { service: agentPlatformDescriptor });
  await ctx.db.prisma.account.update({ where: { id: tenant.accountId }, data: { time_zone: timeZone } });
  return tenant;
}

const run = (now: string, payload: { period?: string; account_id?: string } = {}) =>
  CHARGEBACKS_JOB.run(
    { db: ctx.db.prisma, now: new Date(now), storage: ctx.storage, sandbox: ctx.sandbox, jobs: ctx.jobs },
    payload,
  ) as Promise<{ settled: { account_id: string; period: string; outcome: string }[] }>;
/** The accounts whose November the run settled (an account new in November also gets its empty October settled). */
const settledAccounts = async (result: ReturnType<typeof run>) =>
  (await result).settled.filter((s) => s.outcome === 'settled' && s.period === '2026-11').map((s) => s.account_id);
const settlements = (tenant: Tenant) =>
  ctx.db.prisma.chargebackSettlement.count({ where: { account_id: tenant.accountId, period: '2026-11' } });

describe('the chargebacks job', () => {
  it('is in the app’s job catalogue, every 15 minutes (UTC), with the generation and sweep of internal invoices', () => {
    expect(AGENT_PLATFORM_JOBS.map((j) => j.name)).toEqual(
      expect.arrayContaining(['chargebacks', 'generate-internal-invoice', 'sweep-internal-invoices']),
    );
    expect(CHARGEBACKS_JOB.schedule).toEqual({ pattern: '*/15 * * * *', tz: 'UTC' });
    expect(Value.Check(CHARGEBACKS_JOB.payload, {})).toBe(true);
    expect(Value.Check(CHARGEBACKS_JOB.payload, { period: '2026-11', account_id: 'acct_x' })).toBe(true);
    expect(Value.Check(CHARGEBACKS_JOB.payload, { period: '2026-13' })).toBe(false);
    expect(Value.Check(CHARGEBACKS_JOB.payload, { month: '2026-11' })).toBe(false);
  });

  it('refuses a period that is not closed in any account, naming it', async () => {
    await expect(run('2026-11-25T00:00:00Z', { period: '2026-11' })).rejects.toThrow(/2026-11 is not closed yet/);
    await expect(run('2026-12-05T00:00:00Z', { period: '2026-11', account_id: 'acct_missing' })).rejects.toThrow(
      /No account with the id acct_missing/,
    );
  });

  it('settles the previous month from the 1st, 02:00 in each account’s zone, exactly once', async () => {
    expect(await settledAccounts(run('2026-12-01T00:30:00Z'))).toEqual([]); // 01:30 in Berlin
    expect(await settlements(berlin)).toBe(0);
    expect(await settledAccounts(run('2026-12-01T01:05:00Z'))).toEqual([berlin.accountId]); // 02:05 in Berlin, 20:05 in New York
    expect(await settlements(berlin)).toBe(2);
    expect(await settledAccounts(run('2026-12-01T06:59:59Z'))).toEqual([]); // 01:59:59 in New York
    expect(await settlements(newYork)).toBe(0);
    // Two runs at once: one settlement per team (the run row's key), the other run finds it done.
    const [first, second] = await Promise.all([run('2026-12-01T07:00:00Z'), run('2026-12-01T07:00:00Z')]);
    const outcomes = [...first.settled, ...second.settled]
      .filter((s) => s.account_id === newYork.accountId && s.period === '2026-11')
      .map((s) => s.outcome);
    expect(outcomes.filter((o) => o === 'settled')).toHaveLength(1);
    expect(await settlements(newYork)).toBe(2);
    // Later runs of the month do nothing.
    expect((await run('2026-12-15T12:00:00Z')).settled).toEqual([]);
    expect(
      await ctx.db.prisma.chargebackRun.findMany({
        where: { period: '2026-11' },
        select: { records: true, settlements: true },
      }),
    ).toEqual([
      { records: 2, settlements: 2 },
      { records: 2, settlements: 2 },
    ]);
    expect(await ctx.db.prisma.internalInvoice.count()).toBe(4);
  });

  it('settles a given closed period by hand only once, and never one before a settled period', async () => {
    const again = await run('2026-12-20T00:00:00Z', { period: '2026-11', account_id: berlin.accountId });
    expect(again.settled.map((s) => [s.account_id, s.outcome])).toEqual([[berlin.accountId, 'already_settled']]);
    await expect(run('2026-12-20T00:00:00Z', { period: '2026-09', account_id: berlin.accountId })).rejects.toThrow(
      /later period 2026-11 is settled already/,
    );
    expect(
      await ctx.db.prisma.chargebackRun.count({ where: { account_id: berlin.accountId, period: '2026-09' } }),
    ).toBe(0);
  });
});
