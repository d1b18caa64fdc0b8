import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { zeroPng } from '@platform/uploads/testing/hostile';
import {
  energyCertificate,
  runGeneration,
  startListing,
  startPropertyApp,
  validProperty,
  type PropertyTestContext,
} from './helpers.js';
import { uploadMedia } from './media-helpers.js';

// One tenant uploads a large image and has its exposé generated, in the process that serves every
// tenant (as `pnpm start` runs the API and the worker together); another tenant's requests keep
// their latency, and the serving process its memory: the pixels are decoded elsewhere. The
// thresholds are loose enough for a busy CI machine; bench/RESULTS.md has the figures
// (`pnpm bench:renditions`).

const P99_MS = 250;
const MAX_MS = 1500;
const LOOP_DELAY_MAX_MS = 750;
/** The serving process's own memory may grow this much while the image is decoded and drawn (pdfkit decoding it in-process took ~700 MB). */
const RSS_GROWTH_MAX_MB = 200;

let ctx: PropertyTestContext;
let base: string;
beforeAll(async () => {
  ctx = await startPropertyApp();
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
});
afterAll(() => ctx.close());

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];

/** The other tenant reads its property over real HTTP, one request at a time, until `done` settles. */
async function otherTenantReads(propertyId: string, done: Promise<unknown>) {
  const latencies: number[] = [];
  let finished = false;
  void done.finally(() => (finished = true));
  while (!finished) {
    const started = performance.now();
    const res = await request(`${base}/v1/properties/${propertyId}`, { headers: { apikey: ctx.other.key } });
    await res.body.dump();
    expect(res.statusCode).toBe(200);
    latencies.push(performance.now() - started);
  }
  return latencies.sort((a, b) => a - b);
}

describe('another tenant while a large image is processed', () => {
  it(
    `keeps its p99 under ${P99_MS} ms and every request under ${MAX_MS} ms; the event loop never stalls for ${LOOP_DELAY_MAX_MS} ms, the process grows less than ${RSS_GROWTH_MAX_MB} MB`,
    { timeout: 120_000 },
    async () => {
      const theirs = (await ctx.send('POST', '/v1/properties', validProperty(), ctx.other.key)).json().id;
      const mine = (
        await ctx.send('POST', '/v1/properties', {
          ...validProperty(),
          year_built: 1998,
          energy_certificate: energyCertificate(),
        })
      ).json().id;
      const image = await zeroPng(6000, 6000); // 36 megapixels: under the limit, 144 MB of pixels
      const idle = await otherTenantReads(theirs, new Promise((resolve) => setTimeout(resolve, 1500)));

      const loop = monitorEventLoopDelay({ resolution: 10 });
      loop.enable();
      const rssBefore = process.memoryUsage.rss();
      let rssPeak = rssBefore;
      const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage.rss())), 20);
      const started = performance.now();
      const work = (async () => {
        const upload = await uploadMedia(ctx, mine, [
          { name: 'kind', value: 'photo' },
          { name: 'file', filename: 'big.png', type: 'image/png', data: image },
        ]);
        expect(upload.statusCode, upload.body).toBe(201);
        expect(upload.json()).toMatchObject({ width: 6000, height: 6000 });
        const listing = await startListing(ctx, mine);
        expect(await runGeneration(ctx, listing.id)).toEqual({ listing_id: listing.id, outcome: 'completed' });
      })();
      const during = await otherTenantReads(theirs, work);
      await work;
      loop.disable();
      clearInterval(sampler);
      const rssGrowthMb = (rssPeak - rssBefore) / 1024 / 1024;
      const busyMs = performance.now() - started;

      const figures = {
        idle: { n: idle.length, p50: percentile(idle, 50), p99: percentile(idle, 99), max: idle.at(-1) },
        during: {
          n: during.length,
          p50: percentile(during, 50),
          p99: percentile(during, 99),
          max: during.at(-1),
          busyMs,
        },
        loopDelayMaxMs: loop.max / 1e6,
        rssGrowthMb,
      };
      console.log(
        'other tenant (ms)',
        JSON.stringify(figures, (_k, v) => (typeof v === 'number' ? Math.round(v * 10) / 10 : v)),
      );
      expect(during.length).toBeGreaterThan(10);
      expect(percentile(during, 99)).toBeLessThan(P99_MS);
      expect(during.at(-1)!).toBeLessThan(MAX_MS);
      expect(loop.max / 1e6).toBeLessThan(LOOP_DELAY_MAX_MS);
      expect(rssGrowthMb).toBeLessThan(RSS_GROWTH_MAX_MB);
    },
  );
});
