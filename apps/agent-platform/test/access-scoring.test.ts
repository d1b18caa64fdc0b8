import { describe, expect, it } from 'vitest';
import type { Prisma } from '@platform/db';
import { ACCESS_MODEL, scoreAccessRequest } from '../src/access-requests/scoring.js';

type AgentRow = Prisma.AgentDeploymentGetPayload<object>;
type ProfileRow = Prisma.CapabilityProfileGetPayload<object>;

const at = new Date('2026-11-22T10:00:00Z');
const agent = (over: Partial<AgentRow> = {}): AgentRow => ({
  id: 'agt_1',
  account_id: 'acct_1',
  status: 'active',
  name: 'Invoice triage',
  description: null,
  owning_team: 'Finance automation',
  capabilities: ['ocr', 'classify:invoice', 'summarise'],
  chargeback_amount_cents: 120,
  chargeback_unit: 'per_1k_tokens',
  data_classification: 'confidential',
  created_at: at,
  updated_at: at,
  retired_at: null,
  artifact_count: 0,
  ...over,
});
const profile = (over: Partial<ProfileRow> = {}): ProfileRow => ({
  id: 'cap_1',
  account_id: 'acct_1',
  team: 'Accounts payable',
  name: 'Invoice intake',
  required_capabilities: ['ocr', 'classify:invoice'],
  data_classification: 'internal',
  budget_monthly_cents: 40_000,
  usage_quantity: 250, // 250 × 120 cents = 30,000 cents a month
  usage_unit: 'per_1k_tokens',
  created_at: at,
  updated_at: at,
  ...over,
});

const points = (s: ReturnType<typeof scoreAccessRequest>) =>
  Object.fromEntries(s.criteria.map((c) => [c.criterion, c.points]));

describe('the access-request model access-2026-11', () => {
  it('weighs capabilities 60 and cost 40', () => {
    expect(ACCESS_MODEL.version).toBe('access-2026-11');
    expect(ACCESS_MODEL.criteria.map((c) => [c.key, c.weight])).toEqual([
      ['capabilities', 60],
      ['cost', 40],
    ]);
  });

  it('gives 100 when every capability is offered and the cost is within budget, with a reason per criterion', () => {
    const s = scoreAccessRequest({ agent: agent(), profile: profile() });
    expect(s).toEqual({
      total: 100,
      weights_version: 'access-2026-11',
      knocked_out: false,
      knockouts: [],
      criteria: [
        {
          criterion: 'capabilities',
          weight: 60,
          points: 60,
          outcome: 'met',
          reason: 'Offers 2 of 2 required capabilities.',
        },
        {
          criterion: 'cost',
          weight: 40,
          points: 40,
          outcome: 'met',
          reason:
            'Estimated 30,000 cents a month (120 cents per_1k_tokens × 250) against a budget of 40,000 cents (tolerance 50 %).',
        },
      ],
    });
  });

  it('gives capability points in proportion to the required capabilities offered: 2 of 3 → 40 of 60', () => {
    const s = scoreAccessRequest({
      agent: agent(),
      profile: profile({ required_capabilities: ['ocr', 'classify:invoice', 'translate'] }),
    });
    expect(points(s)).toEqual({ capabilities: 40, cost: 40 });
    expect(s.total).toBe(80);
    expect(s.criteria[0]).toMatchObject({
      outcome: 'deviating',
      reason: 'Offers 2 of 3 required capabilities; missing: translate.',
    });
  });

  it('gives full capability points when none are required', () => {
    const s = scoreAccessRequest({
      agent: agent({ capabilities: [] }),
      profile: profile({ required_capabilities: [] }),
    });
    expect(s.criteria[0]).toMatchObject({ points: 60, outcome: 'met', reason: 'No capabilities required.' });
  });

  it('takes cost points off linearly above budget: 25 % over a 50 % tolerance → half of 40', () => {
    // 30,000 against 24,000: (30,000 − 24,000) / (24,000 × 0.5) = 0.5 of the tolerance used
    const s = scoreAccessRequest({ agent: agent(), profile: profile({ budget_monthly_cents: 24_000 }) });
    expect(points(s)).toEqual({ capabilities: 60, cost: 20 });
    expect(s.criteria[1].outcome).toBe('deviating');
  });

  it('rounds by largest remainder so that the parts add up to the total: 3 of 7 capabilities, cost 1/7 of the tolerance over', () => {
    // capabilities 60 × 3/7 = 25.714; cost: 30,000 against 28,000 → 1 − 2,000/14,000 = 6/7 → 34.286; sum 60
    const s = scoreAccessRequest({
      agent: agent({ capabilities: ['a', 'b', 'c'] }),
      profile: profile({ required_capabilities: ['a', 'b', 'c', 'd', 'e', 'f', 'g'], budget_monthly_cents: 28_000 }),
    });
    expect(points(s)).toEqual({ capabilities: 26, cost: 34 });
    expect(s.total).toBe(60);
  });

  it('scores the cost 0 as deviating when the usage is given in another unit than the agent charges', () => {
    const s = scoreAccessRequest({ agent: agent({ chargeback_unit: 'per_hour' }), profile: profile() });
    expect(s.knocked_out).toBe(false);
    expect(s.criteria[1]).toEqual({
      criterion: 'cost',
      weight: 40,
      points: 0,
      outcome: 'deviating',
      reason: 'Cost cannot be estimated: the agent charges per_hour, the expected usage is given per_1k_tokens.',
    });
    expect(s.total).toBe(60);
  });

  it('meets a budget of 0 only with a free agent', () => {
    const free = scoreAccessRequest({
      agent: agent({ chargeback_amount_cents: 0 }),
      profile: profile({ budget_monthly_cents: 0 }),
    });
    expect(free.total).toBe(100);
    const paid = scoreAccessRequest({ agent: agent(), profile: profile({ budget_monthly_cents: 0 }) });
    expect(paid.knockouts.map((k) => k.criterion)).toEqual(['cost_far_above_budget']);
  });

  describe('knockouts: total 0, reasons listed, criteria still shown with 0 points', () => {
    it('a retired agent', () => {
      const s = scoreAccessRequest({ agent: agent({ status: 'retired' }), profile: profile() });
      expect(s).toMatchObject({
        total: 0,
        knocked_out: true,
        knockouts: [{ criterion: 'agent_status', reason: 'The agent is retired.' }],
      });
      expect(s.criteria.map((c) => c.points)).toEqual([0, 0]);
    });

    it('an agent cleared for less sensitive data than the team passes', () => {
      const s = scoreAccessRequest({
        agent: agent({ data_classification: 'internal' }),
        profile: profile({ data_classification: 'confidential' }),
      });
      expect(s.knockouts).toEqual([
        {
          criterion: 'data_classification',
          reason: 'The agent is cleared for internal data; the team will pass confidential data.',
        },
      ]);
      expect(s.total).toBe(0);
    });

    it.each([
      ['public', 'public', false],
      ['restricted', 'confidential', false],
      ['confidential', 'restricted', true],
      ['public', 'internal', true],
    ] as const)('agent cleared for %s, team passes %s → knocked out: %s', (cleared, passes, out) => {
      const s = scoreAccessRequest({
        agent: agent({ data_classification: cleared }),
        profile: profile({ data_classification: passes }),
      });
      expect(s.knocked_out).toBe(out);
    });

    it('a cost more than 50 % above budget; exactly 50 % above is 0 cost points but no knockout', () => {
      const edge = scoreAccessRequest({ agent: agent(), profile: profile({ budget_monthly_cents: 20_000 }) }); // 30,000 = 150 %
      expect(edge.knocked_out).toBe(false);
      expect(points(edge)).toEqual({ capabilities: 60, cost: 0 });
      const over = scoreAccessRequest({
        agent: agent(),
        profile: profile({ budget_monthly_cents: 20_000, usage_quantity: 251 }),
      }); // 30,120
      expect(over.knockouts).toEqual([
        {
          criterion: 'cost_far_above_budget',
          reason: 'Estimated cost of 30,120 cents a month is more than 50 % above the budget of 20,000 cents.',
        },
      ]);
      expect(over.total).toBe(0);
    });

    it('lists every knockout that applies', () => {
      const s = scoreAccessRequest({
        agent: agent({ status: 'retired', data_classification: 'public' }),
        profile: profile({ budget_monthly_cents: 100 }),
      });
      expect(s.knockouts.map((k) => k.criterion)).toEqual([
        'agent_status',
        'data_classification',
        'cost_far_above_budget',
      ]);
    });
  });
});
