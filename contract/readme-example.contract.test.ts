// The client example of the README, run as written against the services: it must compile (it is
// the file packages/client/examples/quickstart.ts, which the type check covers) and it must work.
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { jpeg } from '@platform/uploads/testing';
import { freePort, until } from '@platform/testkit';
import { quickstart, startWebhookReceiver } from '../packages/client/examples/quickstart.js';
import { contractRun } from './harness.js';

const run = contractRun([]);
let receiver: Server | undefined;
afterAll(() => new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve())));

describe('the README example of the client', () => {
  it('is the example file, word for word', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const example = readFileSync(new URL('../packages/client/examples/quickstart.ts', import.meta.url), 'utf8');
    const block = /<!-- client-example begin -->\n```ts\n([\s\S]*?)```\n<!-- client-example end -->/.exec(readme)?.[1];
    expect(block, 'README.md has no client example between its markers').toBeDefined();
    expect(block).toBe(example);
  });

  it('creates a property, uploads a photo, subscribes and receives a signed delivery it verifies', async () => {
    const port = await freePort();
    let secret = '';
    const events: { type: string; data: unknown }[] = [];
    receiver = startWebhookReceiver(
      port,
      () => secret,
      (event) => events.push(event),
    );
    const result = await quickstart({
      baseUrl: run.urls.property,
      apiKey: run.property.key,
      webhookUrl: `http://127.0.0.1:${port}/hooks`,
      photo: new Blob([jpeg(1600, 1200)], { type: 'image/jpeg' }),
      keepSigningSecret: (kept) => (secret = kept),
    });
    expect(result.property.status).toBe('draft');
    expect(result.photo).toMatchObject({ kind: 'photo', content_type: 'image/jpeg', width: 1600 });
    expect(result.listed).toBe(1);
    const rooms = { type: 'property.updated', data: { property_id: result.property.id, changed_fields: ['rooms'] } };
    await until(async () => events.some((e) => JSON.stringify(e).includes('"rooms"')), 20_000);
    expect(events).toContainEqual(expect.objectContaining(rooms));
  }, 60_000);
});
