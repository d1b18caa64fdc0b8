import { describe, expect, it } from 'vitest';
import { jaccard, rankComparables, type ComparableAgent } from '../src/comparables/similarity.js';

describe('jaccard', () => {
  it.each([
    [['a', 'b', 'c'], ['b', 'c', 'd'], 2 / 4],
    [['a'], ['a'], 1],
    [['a', 'b'], ['c'], 0],
    [[], [], 0],
    [['a', 'b', 'c'], ['a'], 1 / 3],
  ])('%j vs %j = %s', (a, b, expected) => {
    expect(jaccard(a, b).similarity).toBe(expected);
    expect(jaccard(b, a).similarity).toBe(expected);
  });

  it('names the shared capabilities and the size of the union', () => {
    expect(jaccard(['ocr', 'classify', 'x'], ['classify', 'ocr', 'y'])).toEqual({
      similarity: 0.5,
      shared: ['classify', 'ocr'],
      union: 4,
    });
  });
});

describe('rankComparables', () => {
  const agent = (
    id: string,
    capabilities: string[],
    data_classification: ComparableAgent['data_classification'],
    amount: number,
    unit: ComparableAgent['chargeback_unit'] = 'per_1k_tokens',
  ): ComparableAgent => ({
    id,
    name: id,
    capabilities,
    data_classification,
    chargeback_amount_cents: amount,
    chargeback_unit: unit,
  });
  const me = agent('x', ['ocr', 'classify', 'translate'], 'internal', 120);
  const others = [
    me,
    agent('a', ['ocr', 'classify'], 'confidential', 150), // 2/3, +30
    agent('b', ['ocr', 'classify', 'translate', 'summarise'], 'internal', 100), // 3/4, −20
    agent('c', ['ocr', 'classify'], 'internal', 90), // 2/3, −30: before a
    agent('d', ['classify', 'ocr'], 'restricted', 5, 'per_request'), // 2/3, other unit: last of the 2/3
    agent('e', ['ocr'], 'public', 10), // lower clearance: out
    agent('f', ['speech'], 'restricted', 10), // nothing shared: out
  ];

  it('ranks by similarity, then normalised rate (other units last), without itself, lower clearances or no overlap', () => {
    const ranked = rankComparables(me, others);
    expect(ranked.map((c) => [c.agent_id, c.similarity])).toEqual([
      ['b', 0.75],
      ['c', 0.6667],
      ['a', 0.6667],
      ['d', 0.6667],
    ]);
  });

  it('normalises a rate of the same unit and explains, and leaves another unit unnormalised with the reason', () => {
    const [b, , a, d] = rankComparables(me, others);
    expect(b!.normalised).toEqual({ unit: 'per_1k_tokens', amount_cents: 100, difference_cents: -20 });
    expect(b!.reason).toBe(
      'Shares 3 of 4 capabilities (classify, ocr, translate); cleared for internal (this agent: internal); charges 100 cents per_1k_tokens, 20 cents less than this agent.',
    );
    expect(a!.reason).toContain('charges 150 cents per_1k_tokens, 30 cents more than this agent');
    expect(d!.normalised).toBeNull();
    expect(d!.rate).toEqual({ amount_cents: 5, unit: 'per_request' });
    expect(d!.reason).toBe(
      'Shares 2 of 3 capabilities (classify, ocr); cleared for restricted (this agent: internal); charges per_request, this agent per_1k_tokens: not normalised, no conversion between these units is defined.',
    );
  });
});
