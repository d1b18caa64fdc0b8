import { setBillingProfile } from '@platform/billing';
import { createTenant, whileHeld, type Tenant } from '@platform/testkit';
import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleChargebacks, SettlementRefused } from '../src/chargebacks/index.js';
import { agentPlatformDescriptor } from '../src/descriptor.js';
import { AGENT_PLATFORM_EVENTS } from '../src/events.js';
import { startAgentPlatformApp, validAgent, type AgentPlatformTestContext } from './helpers.js';

let ctx: AgentPlatformTestContext;
beforeAll(async () => {
  ctx = await startAgentPlatformApp();
});
afterAll(() => ctx.close());

const at = (iso: string) => (ctx.clock.now = new Date(iso));

async function account(timeZone = 'Europe/Berlin'): Promise<Tenant> {
  const tenant = await createTenant(ctx.db.prisma, { service: agentPlatformDescriptor });
  await ctx.db.prisma.account.update({ where: { id: tenant.accountId }, data: { time_zone: timeZone } });
  return tenant;
}

async function agent(tenant: Tenant, rate = { amount_cents: 120, unit: 'per_1k_tokens' }): Promise<string> {
  const res = await ctx.send('POST', '/v1/agents', { ...validAgent(), chargeback_rate: rate }, tenant.key);
  expect(res.statusCode).toBe(201);
  return res.json().id as string;
}

let n = 0;
async function use(
  tenant: Tenant,
  agentId: string,
  team: string,
  quantity: number,
  occurred_at: string,
  unit = 'per_1k_tokens',
) {
  const res = await ctx.send(
    'POST',
    `/v1/agents/${agentId}/usage`,
    { records: [{ client_id: `r${++n}`, team, quantity, unit, occurred_at }] },
    tenant.key,
  );
  expect(res.json()).toEqual({ accepted: 1, duplicates: 0 });
}

const settle = (tenant: Tenant, period: string, now: string) =>
  settleChargebacks(ctx.db.prisma, { accountId: tenant.accountId, period, now: new Date(now) });

const settlementsOf = (tenant: Tenant, period?: string) =>
  ctx.db.prisma.chargebackSettlement.findMany({
    where: { account_id: tenant.accountId, ...(period ? { period } : {}) },
    orderBy: { team: 'asc' },
    include: { lines: { orderBy: { position: 'asc' } }, internal_invoice: true },
  });

const line = (l: {
  agent_id: string;
  usage_period: string;
  late: boolean;
  records: number;
  quantity: { toString(): string };
  rate_amount_cents: number;
  amount_cents: bigint;
}) => ({
  agent_id: l.agent_id,
  usage_period: l.usage_period,
  late: l.late,
  records: l.records,
  quantity: l.quantity.toString(),
  rate: l.rate_amount_cents,
  amount: Number(l.amount_cents),
});

const eventsOf = async (tenant: Tenant) =>
  (
    await ctx.db.prisma.outboxEvent.findMany({
      where: { account_id: tenant.accountId, type: 'settlement.created' },
      orderBy: { created_at: 'asc' },
    })
  ).map((e) => JSON.parse(e.payload).data);
const eventSchema = AGENT_PLATFORM_EVENTS.find((e) => e.type === 'settlement.created')!.data;

describe('settleChargebacks', () => {
  it('prices usage at the rate valid when it occurred: two rates in one period are two lines, each rounded half up once', async () => {
    const tenant = await account();
    at('2026-10-20T08:00:00Z');
    const id = await agent(tenant);
    at('2026-11-20T12:00:00Z');
    await use(tenant, id, 'Accounts payable', 1.5, '2026-11-03T10:00:00Z');
    await use(tenant, id, 'Accounts payable', 2.25, '2026-11-09T23:59:59Z');
    at('2026-11-10T00:00:00Z');
    expect(
      (await ctx.send('PATCH', `/v1/agents/${id}`, { chargeback_rate: { amount_cents: 125 } }, tenant.key)).statusCode,
    ).toBe(200);
    at('2026-11-20T12:00:00Z');
    // 5 × 0.02 at 125: per line 0.1 × 125 = 12.5 → 13 (per record it would be 5 × 3 = 15)
    for (let i = 0; i < 5; i++) await use(tenant, id, 'Accounts payable', 0.02, '2026-11-10T00:00:00Z');
    await use(tenant, id, 'Treasury', 1, '2026-11-20T10:00:00Z');

    const outcome = await settle(tenant, '2026-11', '2026-12-01T01:00:00Z');
    expect(outcome).toMatchObject({
      outcome: 'settled',
      records: 8,
      settlements: 2,
      unpriced_records: 0,
      unclaimed_records: 0,
    });
    const [payable, treasury] = await settlementsOf(tenant);
    // 3.75 × 120 = 450; 0.1 × 125 = 12.5 → 13
    expect(payable.lines.map(line)).toEqual([
      { agent_id: id, usage_period: '2026-11', late: false, records: 2, quantity: '3.75', rate: 120, amount: 450 },
      { agent_id: id, usage_period: '2026-11', late: false, records: 5, quantity: '0.1', rate: 125, amount: 13 },
    ]);
    expect(Number(payable.net_cents)).toBe(463);
    expect(treasury.lines.map(line)).toEqual([
      { agent_id: id, usage_period: '2026-11', late: false, records: 1, quantity: '1', rate: 125, amount: 125 },
    ]);
    // one internal invoice per team, numbers gapless in the order of the teams, dated the run's local day
    expect(
      [payable, treasury].map((s) => [
        s.internal_invoice?.number,
        s.internal_invoice?.issue_date.toISOString().slice(0, 10),
        Number(s.internal_invoice?.net_cents),
      ]),
    ).toEqual([
      ['2026-000001', '2026-12-01', 463],
      ['2026-000002', '2026-12-01', 125],
    ]);
    const events = await eventsOf(tenant);
    expect(events).toEqual([
      {
        settlement_id: payable.id,
        team: 'Accounts payable',
        amount_cents: 463,
        period: '2026-11',
        internal_invoice_id: payable.internal_invoice?.id,
        internal_invoice_number: '2026-000001',
        late_amount_cents: 0,
      },
      {
        settlement_id: treasury.id,
        team: 'Treasury',
        amount_cents: 125,
        period: '2026-11',
        internal_invoice_id: treasury.internal_invoice?.id,
        internal_invoice_number: '2026-000002',
        late_amount_cents: 0,
      },
    ]);
    for (const data of events) expect(Value.Check(eventSchema, data)).toBe(true);
    // every record of the period was claimed (later usage staying unsettled: the New York test below)
    expect(await ctx.db.prisma.usageRecord.count({ where: { account_id: tenant.accountId, settled_in: null } })).toBe(
      0,
    );
  });

  it('takes the period in the account’s time zone and leaves later usage unsettled', async () => {
    const tenant = await account('America/New_York');
    at('2026-10-01T08:00:00Z');
    const id = await agent(tenant, { amount_cents: 10, unit: 'per_request' });
    at('2026-12-01T12:00:00Z');
    await use(tenant, id, 'Ops', 1, '2026-11-01T03:59:59Z', 'per_request'); // 2026-10-31 23:59:59 in New York: October
    await use(tenant, id, 'Ops', 2, '2026-11-01T04:00:00Z', 'per_request'); // 2026-11-01 00:00 in New York
    await use(tenant, id, 'Ops', 4, '2026-12-01T05:00:00Z', 'per_request'); // December 00:00 in New York: not November
    await settle(tenant, '2026-11', '2026-12-01T06:00:00Z');
    const [ops] = await settlementsOf(tenant);
    expect(ops.lines.map(line)).toEqual([
      { agent_id: id, usage_period: '2026-10', late: true, records: 1, quantity: '1', rate: 10, amount: 10 },
      { agent_id: id, usage_period: '2026-11', late: false, records: 1, quantity: '2', rate: 10, amount: 20 },
    ]);
    expect(await ctx.db.prisma.usageRecord.count({ where: { account_id: tenant.accountId, settled_in: null } })).toBe(
      1,
    );
  });

  it('puts usage of a settled period that arrives late into the next period’s settlement, marked late', async () => {
    const tenant = await account();
    at('2026-09-20T08:00:00Z');
    const id = await agent(tenant, { amount_cents: 300, unit: 'per_hour' });
    at('2026-10-20T12:00:00Z');
    await use(tenant, id, 'Data science', 2, '2026-10-10T10:00:00Z', 'per_hour');
    expect(await settle(tenant, '2026-10', '2026-11-01T01:00:00Z')).toMatchObject({
      outcome: 'settled',
      records: 1,
      settlements: 1,
    });
    at('2026-11-15T12:00:00Z');
    await use(tenant, id, 'Data science', 0.5, '2026-10-25T10:00:00Z', 'per_hour'); // October, reported after October was settled
    await use(tenant, id, 'Data science', 1.25, '2026-11-14T10:00:00Z', 'per_hour');
    expect(await settle(tenant, '2026-11', '2026-12-01T01:00:00Z')).toMatchObject({
      outcome: 'settled',
      records: 2,
      settlements: 1,
    });
    const [october, november] = await ctx.db.prisma.chargebackSettlement.findMany({
      where: { account_id: tenant.accountId },
      orderBy: { period: 'asc' },
      include: { lines: { orderBy: { position: 'asc' } } },
    });
    expect(october.lines.map(line)).toEqual([
      { agent_id: id, usage_period: '2026-10', late: false, records: 1, quantity: '2', rate: 300, amount: 600 },
    ]);
    expect(november.lines.map(line)).toEqual([
      { agent_id: id, usage_period: '2026-10', late: true, records: 1, quantity: '0.5', rate: 300, amount: 150 },
      { agent_id: id, usage_period: '2026-11', late: false, records: 1, quantity: '1.25', rate: 300, amount: 375 },
    ]);
    expect((await eventsOf(tenant)).map((e) => [e.period, e.amount_cents, e.late_amount_cents])).toEqual([
      ['2026-10', 600, 0],
      ['2026-11', 525, 150],
    ]);
    expect(
      await ctx.db.prisma.usageRecord.groupBy({
        by: ['settled_in'],
        where: { account_id: tenant.accountId },
        _count: true,
        orderBy: { settled_in: 'asc' },
      }),
    ).toEqual([
      { settled_in: '2026-10', _count: 1 },
      { settled_in: '2026-11', _count: 2 },
    ]);
  });

  it('settles a period once: a second run does nothing and answers already_settled', async () => {
    const tenant = await account();
    at('2026-10-20T08:00:00Z');
    const id = await agent(tenant);
    at('2026-11-20T12:00:00Z');
    await use(tenant, id, 'Ops', 1, '2026-11-10T10:00:00Z');
    await settle(tenant, '2026-11', '2026-12-02T00:00:00Z');
    expect(await settle(tenant, '2026-11', '2026-12-03T00:00:00Z')).toMatchObject({
      outcome: 'already_settled',
      records: 1,
      settlements: 1,
      internal_invoice_ids: [],
    });
    expect(await settlementsOf(tenant)).toHaveLength(1);
    expect(await eventsOf(tenant)).toHaveLength(1);
  });

  it('settles a period once when two runs race: the second waits on the run row and does nothing', async () => {
    const tenant = await account();
    at('2026-10-20T08:00:00Z');
    const id = await agent(tenant);
    at('2026-11-20T12:00:00Z');
    for (const team of ['A', 'B', 'C']) await use(tenant, id, team, 1, '2026-11-10T10:00:00Z');
    // The records locked: the first run inserts its run row and waits at the claim, the second waits on the run row.
    const { result, waited } = await whileHeld(
      ctx.db,
      (tx) => tx.$queryRaw`SELECT id FROM usage_records WHERE account_id = ${tenant.accountId} FOR UPDATE`,
      () =>
        Promise.all([
          settle(tenant, '2026-11', '2026-12-02T00:00:00Z'),
          settle(tenant, '2026-11', '2026-12-02T00:00:00Z'),
        ]),
      2,
    );
    expect(waited).toBe(2);
    expect(result.map((r) => r.outcome).sort()).toEqual(['already_settled', 'settled']);
    const settlements = await settlementsOf(tenant);
    expect(settlements.map((s) => [s.team, s.internal_invoice?.number])).toEqual([
      ['A', '2026-000001'],
      ['B', '2026-000002'],
      ['C', '2026-000003'],
    ]);
    expect(await eventsOf(tenant)).toHaveLength(3);
  });

  it('refuses a period that is not closed, a malformed one and one earlier than a settled period', async () => {
    const tenant = await account();
    at('2026-10-20T08:00:00Z');
    await agent(tenant);
    // November ends 2026-12-01 00:00 Berlin = 2026-11-30T23:00Z
    await expect(settle(tenant, '2026-11', '2026-11-30T22:59:59Z')).rejects.toThrow(/not closed yet/);
    await expect(settle(tenant, '2026-13', '2026-12-30T00:00:00Z')).rejects.toBeInstanceOf(SettlementRefused);
    await settle(tenant, '2026-11', '2026-11-30T23:00:00Z');
    await expect(settle(tenant, '2026-10', '2026-12-01T00:00:00Z')).rejects.toThrow(
      /later period 2026-11 is settled already/,
    );
    expect(
      await ctx.db.prisma.chargebackRun.findMany({ where: { account_id: tenant.accountId }, select: { period: true } }),
    ).toEqual([{ period: '2026-11' }]);
  });

  it('gives teams without usage nothing, and a run without usage only its run row', async () => {
    const tenant = await account();
    at('2026-10-20T08:00:00Z');
    await agent(tenant);
    expect(await settle(tenant, '2026-10', '2026-11-02T00:00:00Z')).toMatchObject({
      outcome: 'settled',
      records: 0,
      settlements: 0,
    });
    expect(await settlementsOf(tenant)).toEqual([]);
    expect(await ctx.db.prisma.internalInvoice.count({ where: { account_id: tenant.accountId } })).toBe(0);
  });

  it('prices usage reported for a time before the agent existed at its first rate', async () => {
    const tenant = await account();
    at('2026-11-15T08:00:00Z');
    const id = await agent(tenant, { amount_cents: 7, unit: 'per_request' });
    await use(tenant, id, 'Ops', 3, '2026-11-02T10:00:00Z', 'per_request');
    await settle(tenant, '2026-11', '2026-12-02T00:00:00Z');
    const [ops] = await settlementsOf(tenant);
    expect(ops.lines.map(line)).toEqual([
      { agent_id: id, usage_period: '2026-11', late: false, records: 1, quantity: '3', rate: 7, amount: 21 },
    ]);
  });

  it('leaves the records of an agent without any rate row unclaimed, counts them and claims them once it has one', async () => {
    const tenant = await account();
    at('2026-10-20T08:00:00Z');
    const rated = await agent(tenant, { amount_cents: 7, unit: 'per_request' });
    const unrated = await agent(tenant, { amount_cents: 9, unit: 'per_request' });
    // an agent from before rates were kept: no row in agent_rates
    await ctx.db.prisma.agentRate.deleteMany({ where: { agent_id: unrated } });
    at('2026-11-20T12:00:00Z');
    await use(tenant, rated, 'Ops', 2, '2026-11-05T10:00:00Z', 'per_request');
    await use(tenant, unrated, 'Ops', 3, '2026-11-06T10:00:00Z', 'per_request');
    at('2026-12-04T00:00:00Z');
    await use(tenant, unrated, 'Ops', 4, '2026-12-03T10:00:00Z', 'per_request'); // after the period: not counted
    expect(await settle(tenant, '2026-11', '2026-12-02T00:00:00Z')).toMatchObject({
      outcome: 'settled',
      records: 1,
      unclaimed_records: 1,
    });
    const [ops] = await settlementsOf(tenant);
    expect(ops.lines.map(line)).toEqual([
      { agent_id: rated, usage_period: '2026-11', late: false, records: 1, quantity: '2', rate: 7, amount: 14 },
    ]);
    expect(await ctx.db.prisma.usageRecord.count({ where: { agent_id: unrated, settled_in: null } })).toBe(2);

    at('2027-01-10T00:00:00Z');
    expect(
      (await ctx.send('PATCH', `/v1/agents/${unrated}`, { chargeback_rate: { amount_cents: 10 } }, tenant.key))
        .statusCode,
    ).toBe(200);
    // the new rate is the agent's first: it covers the earlier usage too (late November, December)
    expect(await settle(tenant, '2026-12', '2027-01-02T00:00:00Z')).toMatchObject({
      records: 2,
      unclaimed_records: 0,
    });
    const [december] = await settlementsOf(tenant, '2026-12');
    expect(december.lines.map(line)).toEqual([
      { agent_id: unrated, usage_period: '2026-11', late: true, records: 1, quantity: '3', rate: 10, amount: 30 },
      { agent_id: unrated, usage_period: '2026-12', late: false, records: 1, quantity: '4', rate: 10, amount: 40 },
    ]);
  });

  it('claims records whose unit is not the unit of the rate valid when they occurred on a line of amount 0', async () => {
    const tenant = await account();
    at('2026-10-20T08:00:00Z');
    const id = await agent(tenant, { amount_cents: 50, unit: 'per_request' });
    at('2026-11-10T00:00:00Z');
    expect(
      (
        await ctx.send(
          'PATCH',
          `/v1/agents/${id}`,
          { chargeback_rate: { amount_cents: 900, unit: 'per_hour' } },
          tenant.key,
        )
      ).statusCode,
    ).toBe(200);
    at('2026-11-20T00:00:00Z');
    // occurred under the per_request rate, reported (in the agent's unit then, hours) after the change
    await use(tenant, id, 'Ops', 2, '2026-11-05T10:00:00Z', 'per_hour');
    await use(tenant, id, 'Ops', 1, '2026-11-15T10:00:00Z', 'per_hour');
    expect(await settle(tenant, '2026-11', '2026-12-02T00:00:00Z')).toMatchObject({ records: 2, unpriced_records: 1 });
    const [ops] = await settlementsOf(tenant);
    expect(ops.lines.map((l) => [l.unit, l.rate_amount_cents, Number(l.amount_cents)])).toEqual([
      ['per_hour', 50, 0],
      ['per_hour', 900, 900],
    ]);
  });
  it('copies the issuer from the billing profile, or the account’s name with an empty address when it has none', async () => {
    const withProfile = await account();
    const without = await account();
    const profile = {
      name: 'Muster GmbH',
      street: 'Musterstraße 1',
      postal_code: '10115',
      city: 'Berlin',
      country: 'DE',
      vat_id: 'DE123456789',
      tax_number: null,
      email: null,
      phone: null,
      contact: null,
    };
    await setBillingProfile(
      ctx.db.prisma,
      withProfile.accountId,
      { ...profile, iban: 'DE89370400440532013000' },
      new Date('2026-10-01T00:00:00Z'),
    );
    for (const tenant of [withProfile, without]) {
      at('2026-10-20T08:00:00Z');
      const id = await agent(tenant);
      await use(tenant, id, 'Ops', 1, '2026-10-10T10:00:00Z');
      await settle(tenant, '2026-10', '2026-11-02T00:00:00Z');
    }
    const issuer = async (tenant: Tenant) =>
      (await ctx.db.prisma.internalInvoice.findFirstOrThrow({ where: { account_id: tenant.accountId } })).issuer;
    expect(await issuer(withProfile)).toEqual(profile);
    expect(await issuer(without)).toEqual({
      name: `Account ${without.accountId}`,
      street: '',
      postal_code: '',
      city: '',
      country: 'DE',
    });
  });
});
