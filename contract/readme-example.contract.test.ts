// The client example of the README, run as written against the services: it must compile (it is
// the file packages/client/examples/quickstart.ts, which the type check covers) and it must work.
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { jpeg } from '@platform/uploads/testing';
import { freePort, until } from '@platform/testkit';
import { signatureHeader } from '@platform/webhooks';
import {
  quickstart,
  seenEventIds,
  startWebhookReceiver,
  type WebhookEvent,
} from '../packages/client/examples/quickstart.js';
import { contractRun } from './harness.js';

const run = contractRun([]);
const receivers: Server[] = [];
afterAll(() => Promise.all(receivers.map((r) => new Promise<void>((resolve) => r.close(() => resolve())))));

const readme = () => readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const example = () => readFileSync(new URL('../packages/client/examples/quickstart.ts', import.meta.url), 'utf8');

describe('the README example of the client', () => {
  it('is the example file, word for word', () => {
    const block = /<!-- client-example begin -->\n```ts\n([\s\S]*?)```\n<!-- client-example end -->/.exec(
      readme(),
    )?.[1];
    expect(block, 'README.md has no client example between its markers').toBeDefined();
    expect(block).toBe(example());
  });

  it('says which properties it lists: the status in its comment is the one it filters by', () => {
    const listing = /\/\/ Every (\w+) property[\s\S]*?\.list\(\{ status: '(\w+)' \}\)/.exec(example());
    expect(listing, 'the listing and its comment').not.toBeNull();
    expect(listing![1]).toBe(listing![2]);
  });

  it('creates a property, uploads a photo, subscribes and receives a signed delivery it verifies', async () => {
    const port = await freePort();
    let secret = '';
    const events: WebhookEvent[] = [];
    receivers.push(
      startWebhookReceiver(
        port,
        () => secret,
        (event) => void events.push(event),
      ),
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

  it('answers 202 before processing, processes a repeated event once, and again only after seven days', async () => {
    const port = await freePort();
    const secret = 'whsec_readme_example';
    let now = Date.now();
    const processed: string[] = [];
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    receivers.push(
      startWebhookReceiver(
        port,
        () => secret,
        async (event) => {
          processed.push(event.id);
          if (event.id === 'evt_first') await held; // still processing while the sender has its answer
        },
        seenEventIds(() => now),
      ),
    );
    const deliver = async (id: string, signedWith = secret) => {
      const body = JSON.stringify({ id, type: 'property.updated', created_at: new Date().toISOString(), data: {} });
      const res = await fetch(`http://127.0.0.1:${port}/hooks`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-service-signature': signatureHeader([signedWith], Math.floor(Date.now() / 1000), body),
        },
        body,
      });
      return res.status;
    };

    expect(await deliver('evt_first')).toBe(202);
    await until(async () => processed.includes('evt_first'));
    expect(await deliver('evt_first')).toBe(202); // the retry of a delivery whose answer was lost
    expect(await deliver('evt_forged', 'another secret')).toBe(401);
    expect(await deliver('evt_second')).toBe(202);
    await until(async () => processed.includes('evt_second'));
    release();
    expect(processed).toEqual(['evt_first', 'evt_second']);

    now += 7 * 24 * 3600 * 1000 - 1;
    expect(await deliver('evt_first')).toBe(202);
    expect(await deliver('evt_third')).toBe(202);
    await until(async () => processed.includes('evt_third'));
    expect(processed).toEqual(['evt_first', 'evt_second', 'evt_third']);

    now += 2; // seven days after it was taken: forgotten
    expect(await deliver('evt_first')).toBe(202);
    await until(async () => processed.length === 4);
    expect(processed).toEqual(['evt_first', 'evt_second', 'evt_third', 'evt_first']);
  });
});
