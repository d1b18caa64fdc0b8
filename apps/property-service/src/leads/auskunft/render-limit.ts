import { ApiError } from '@platform/http';

/**
 * The bound on rendering Auskunft PDFs in the API process, as the sandbox bounds documents and
 * uploads: at most `concurrent` at once, two per account at a time, `waiting` in line; beyond, a
 * 503 with `Retry-After` at once. The document is small and drawn from the service's own data
 * (no decoder of untrusted input), so it is rendered in process rather than in a child.
 */
export interface RenderLimit {
  run<T>(accountId: string, render: () => Promise<T>): Promise<T>;
}

export interface RenderLimitOptions {
  concurrent: number;
  perAccount: number;
  waiting: number;
}

export const AUSKUNFT_RENDER_LIMIT: RenderLimitOptions = { concurrent: 2, perAccount: 2, waiting: 8 };

const busy = () =>
  new ApiError('service_unavailable', {
    message: 'Too many documents are being generated at the moment; try again shortly.',
    messageDe: 'Gerade werden zu viele Dokumente erzeugt; bitte gleich noch einmal versuchen.',
    headers: { 'retry-after': '5' },
  });

export function createRenderLimit(options: RenderLimitOptions = AUSKUNFT_RENDER_LIMIT): RenderLimit {
  let running = 0;
  const queue: (() => void)[] = [];
  const perAccount = new Map<string, number>();

  const release = (accountId: string) => {
    const left = (perAccount.get(accountId) ?? 1) - 1;
    if (left === 0) perAccount.delete(accountId);
    else perAccount.set(accountId, left);
    running--;
    queue.shift()?.();
  };

  return {
    async run(accountId, render) {
      const mine = perAccount.get(accountId) ?? 0;
      if (mine >= options.perAccount) throw busy();
      if (running >= options.concurrent && queue.length >= options.waiting) throw busy();
      perAccount.set(accountId, mine + 1);
      if (running >= options.concurrent) await new Promise<void>((resolve) => queue.push(resolve));
      running++;
      try {
        return await render();
      } finally {
        release(accountId);
      }
    },
  };
}
