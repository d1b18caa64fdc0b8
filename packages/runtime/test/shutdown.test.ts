import { describe, expect, it } from 'vitest';
import { serverOptions } from '@platform/http';
import { DELIVERY_TIMEOUT_MS } from '@platform/webhooks';
import { SHUTDOWN_GRACE_MS } from '../src/serve.js';
import { runShutdownSteps } from '../src/shutdown.js';

describe('graceful shutdown', () => {
  it('runs every step even when one fails, and names the failed ones', async () => {
    const closed: string[] = [];
    const errors: string[] = [];
    const failed = await runShutdownSteps(
      [
        ['service', async () => closed.push('service')],
        ['relay', async () => Promise.reject(new Error('relay would not stop'))],
        ['redis', async () => closed.push('redis')],
        ['database', async () => closed.push('database')],
      ],
      (name) => errors.push(name),
    );
    expect(closed).toEqual(['service', 'redis', 'database']);
    expect(failed).toEqual(['relay']);
    expect(errors).toEqual(['relay']);
  });

  it('waits longer than a request and a delivery attempt may take', () => {
    expect(SHUTDOWN_GRACE_MS).toBeGreaterThan((serverOptions().requestTimeout ?? 0) + DELIVERY_TIMEOUT_MS);
  });
});
