import { describe, expect, it } from 'vitest';
import { BatchItemError, Batcher } from '../src/batcher.js';

describe('Batcher', () => {
  it('serves concurrent calls with one run, each caller getting its own result', async () => {
    const runs: number[][] = [];
    const batcher = new Batcher<number, number>(async (inputs) => {
      runs.push(inputs);
      return inputs.map((n) => n * 2);
    });
    expect(await Promise.all([1, 2, 3].map((n) => batcher.call(n)))).toEqual([2, 4, 6]);
    expect(runs).toEqual([[1, 2, 3]]);
  });

  it('flushes at the size limit and passes errors to every caller of the batch', async () => {
    let calls = 0;
    const batcher = new Batcher<number, number>(
      async (inputs) => {
        calls++;
        if (inputs.includes(99)) throw new Error('boom');
        return inputs;
      },
      { maxSize: 2 },
    );
    const results = await Promise.allSettled([batcher.call(1), batcher.call(2), batcher.call(99), batcher.call(4)]);
    expect(calls).toBe(2);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'rejected']);
  });
});

describe('Batcher with per-caller failures', () => {
  it('rejects only the callers whose place holds a BatchItemError', async () => {
    const batcher = new Batcher<number, number>(async (inputs) =>
      inputs.map((n) => (n < 0 ? new BatchItemError(new Error(`bad ${n}`)) : n)),
    );
    const results = await Promise.allSettled([batcher.call(1), batcher.call(-2), batcher.call(3)]);
    expect(results).toEqual([
      { status: 'fulfilled', value: 1 },
      { status: 'rejected', reason: new Error('bad -2') },
      { status: 'fulfilled', value: 3 },
    ]);
  });
});
