// Copied into the integrator's folder and run there with node: the README example compiled from its
// block (out/quickstart.js), importing @platform/client from that folder's node_modules. It starts
// the example's receiver, runs the example and waits for the signed delivery; prints JSON.
import { Blob } from 'node:buffer';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { quickstart, startWebhookReceiver } from './out/quickstart.js';

const { BASE_URL, API_KEY, PHOTO } = process.env;
let secret = '';
const events = [];
const receiver = startWebhookReceiver(
  0,
  () => secret,
  (event) => events.push(event),
);
await once(receiver, 'listening');
const result = await quickstart({
  baseUrl: BASE_URL,
  apiKey: API_KEY,
  webhookUrl: `http://127.0.0.1:${receiver.address().port}/hooks`,
  photo: new Blob([readFileSync(PHOTO)], { type: 'image/jpeg' }),
  keepSigningSecret: (kept) => (secret = kept),
});
const deadline = Date.now() + 20_000;
// The photo's own property.updated (changed_fields: media) may arrive first: wait for the PATCH's.
const patched = (event) => event.type === 'property.updated' && event.data.changed_fields.includes('rooms');
while (!events.some(patched) && Date.now() < deadline) await sleep(50);
receiver.close();
console.log(JSON.stringify({ ...result, events, clientResolvedTo: import.meta.resolve('@platform/client') }));
