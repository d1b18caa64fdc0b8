// The bound on rendering Auskunft PDFs in process: a few at once, two per account, a short line;
// beyond it, 503 with Retry-After at once (never an unbounded pile of renders in the API process).
import { describe, expect, it } from 'vitest';
import { ApiError } from '@platform/http';
import { createRenderLimit } from '../src/leads/auskunft/render-limit.js';

/** A render that runs until released. */
function held() {
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  return { render: () => done.then(() => 'pdf'), release };
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('createRenderLimit', () => {
  it('refuses a third render of one account while two run, with 503 and Retry-After', async () => {
    const limit = createRenderLimit({ concurrent: 4, perAccount: 2, waiting: 0 });
    const [a, b] = [held(), held()];
    const running = [limit.run('acct_1', a.render), limit.run('acct_1', b.render)];
    const error = await refusal(limit.run('acct_1', async () => 'pdf'));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('service_unavailable');
    expect((error as ApiError).headers).toEqual({ 'retry-after': '5' });
    expect(await limit.run('acct_2', async () => 'other account')).toBe('other account');
    a.release();
    b.release();
    expect(await Promise.all(running)).toEqual(['pdf', 'pdf']);
    expect(await limit.run('acct_1', async () => 'again')).toBe('again'); // the account's slots are free again
  });

  it('lets renders wait in a bounded line for a free slot, then refuses', async () => {
    const limit = createRenderLimit({ concurrent: 1, perAccount: 5, waiting: 1 });
    const first = held();
    const order: string[] = [];
    const running = limit.run('acct_1', () => first.render().then(() => order.push('first')));
    const waiting = limit.run('acct_2', async () => order.push('second'));
    expect(await refusal(limit.run('acct_3', async () => 'x'))).toBeInstanceOf(ApiError);
    expect(order).toEqual([]);
    first.release();
    await Promise.all([running, waiting]);
    expect(order).toEqual(['first', 'second']);
  });

  it('frees the slot when a render fails', async () => {
    const limit = createRenderLimit({ concurrent: 1, perAccount: 1, waiting: 0 });
    await expect(limit.run('acct_1', () => Promise.reject(new Error('broken')))).rejects.toThrow('broken');
    expect(await limit.run('acct_1', async () => 'ok')).toBe('ok');
  });
});
