import { describe, expect, it } from 'vitest';
import { atLeast, atMost, defineModel, largestRemainder, score } from '../src/index.js';

interface Flat {
  type: string;
  rooms: number;
  price: number;
}
interface Wish {
  types: string[];
  minRooms: number;
  budget: number;
}

const model = defineModel<{ flat: Flat; wish: Wish }>({
  version: 'test-1',
  knockouts: [
    {
      key: 'type',
      check: ({ flat, wish }) => (wish.types.includes(flat.type) ? null : `type ${flat.type} is not wanted`),
    },
    {
      key: 'price_far_above_budget',
      check: ({ flat, wish }) => (flat.price > wish.budget * 1.2 ? 'price more than 20 % above budget' : null),
    },
  ],
  criteria: [
    {
      key: 'price',
      weight: 60,
      assess: ({ flat, wish }) => ({
        fraction: atMost(flat.price, wish.budget, 0.2),
        reason: `price ${flat.price} for budget ${wish.budget}`,
      }),
    },
    {
      key: 'rooms',
      weight: 40,
      assess: ({ flat, wish }) => ({
        fraction: atLeast(flat.rooms, wish.minRooms, 0.5),
        reason: `${flat.rooms} rooms for at least ${wish.minRooms}`,
      }),
    },
  ],
});

describe('tolerances', () => {
  it('are 1 within the limit and fall linearly to 0 at the tolerance', () => {
    expect(atMost(100, 100, 0.2)).toBe(1);
    expect(atMost(110, 100, 0.2)).toBeCloseTo(0.5);
    expect(atMost(120, 100, 0.2)).toBe(0);
    expect(atMost(150, 100, 0.2)).toBe(0);
    expect(atLeast(3, 4, 0.5)).toBeCloseTo(0.5);
    expect(atLeast(2, 4, 0.5)).toBe(0);
    expect(atLeast(5, 4, 0.5)).toBe(1);
  });
});

describe('score', () => {
  it('gives full points when every criterion is met', () => {
    const result = score(model, {
      flat: { type: 'apartment', rooms: 3, price: 300_000 },
      wish: { types: ['apartment'], minRooms: 3, budget: 300_000 },
    });
    expect(result).toEqual({
      total: 100,
      weights_version: 'test-1',
      knocked_out: false,
      knockouts: [],
      criteria: [
        { key: 'price', weight: 60, points: 60, outcome: 'met', reason: 'price 300000 for budget 300000' },
        { key: 'rooms', weight: 40, points: 40, outcome: 'met', reason: '3 rooms for at least 3' },
      ],
    });
  });

  it('hand-computed: price 10 % over a 20 % tolerance = 30 of 60; 3 of 4 rooms with 50 % tolerance = 20 of 40', () => {
    const result = score(model, {
      flat: { type: 'apartment', rooms: 3, price: 330_000 },
      wish: { types: ['apartment'], minRooms: 4, budget: 300_000 },
    });
    expect(result.criteria.map((c) => [c.key, c.points, c.outcome])).toEqual([
      ['price', 30, 'deviating'],
      ['rooms', 20, 'deviating'],
    ]);
    expect(result.total).toBe(50);
  });

  it('a knockout makes the total 0 and says why; criteria stay listed with 0 points', () => {
    const result = score(model, {
      flat: { type: 'house', rooms: 5, price: 400_000 },
      wish: { types: ['apartment'], minRooms: 3, budget: 300_000 },
    });
    expect(result.total).toBe(0);
    expect(result.knocked_out).toBe(true);
    expect(result.knockouts).toEqual([
      { key: 'type', reason: 'type house is not wanted' },
      { key: 'price_far_above_budget', reason: 'price more than 20 % above budget' },
    ]);
    expect(result.criteria.every((c) => c.points === 0)).toBe(true);
  });

  it('parts always add up to the total', () => {
    for (let i = 0; i < 500; i++) {
      const flat = { type: 'apartment', rooms: 1 + Math.random() * 5, price: 200_000 + Math.random() * 200_000 };
      const result = score(model, { flat, wish: { types: ['apartment'], minRooms: 3, budget: 300_000 } });
      expect(result.criteria.reduce((acc, c) => acc + c.points, 0)).toBe(result.total);
      expect(result.total).toBeGreaterThanOrEqual(0);
      expect(result.total).toBeLessThanOrEqual(100);
    }
  });

  it('refuses a model whose weights do not add up to 100', () => {
    expect(() =>
      defineModel({
        version: 'bad',
        knockouts: [],
        criteria: [{ key: 'a', weight: 50, assess: () => ({ fraction: 1, reason: '' }) }],
      }),
    ).toThrow(/add up to 50/);
  });
});

describe('largestRemainder', () => {
  it.each([
    [
      [33.3, 33.3, 33.4],
      [33, 33, 34],
    ],
    [
      [10.5, 20.5, 30],
      [11, 20, 30],
    ],
    [
      [0.4, 0.4, 0.4],
      [1, 0, 0],
    ],
  ])('%j → %j', (values, expected) => {
    expect(largestRemainder(values)).toEqual(expected);
  });
});
