import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '@platform/testkit';
import { multipart, png } from '@platform/uploads/testing';
import { buildPropertyApp } from '../src/app.js';
import { propertyDescriptor } from '../src/descriptor.js';
import type { PropertyTestContext } from './helpers.js';
import { blobFiles, photoParts, uploadMedia } from './media-helpers.js';
import { createProperty } from './security/properties.js';

const LIMIT = 4096;
let ctx: PropertyTestContext;
beforeAll(async () => {
  ctx = await startTestApp(propertyDescriptor, (deps) => buildPropertyApp({ ...deps, mediaMaxBytes: LIMIT }));
});
afterAll(() => ctx.close());

/** A PNG a little larger than `bytes` (its text chunk pads it). */
const pngOf = (bytes: number) => png(4, 4, 'x'.repeat(bytes));

describe('property media: limits and aborted uploads', () => {
  it('refuses a file over the limit with 413 payload_too_large, stores nothing and still reads the rest of the form', async () => {
    const id = await createProperty(ctx);
    const res = await uploadMedia(ctx, id, [
      { name: 'file', filename: 'big.png', type: 'image/png', data: pngOf(LIMIT) },
      { name: 'kind', value: 'photo' },
    ]);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({
      code: 'payload_too_large',
      details: [{ field: 'file', reason: 'too_long', constraint: { max_bytes: LIMIT } }],
    });
    expect(await ctx.db.prisma.propertyMedia.count()).toBe(0);
    expect(await blobFiles(ctx.blobRoot)).toEqual([]);
    const ok = await uploadMedia(ctx, id, photoParts(pngOf(LIMIT - 200)));
    expect(ok.statusCode).toBe(201);
    expect(ok.json().size).toBeLessThanOrEqual(LIMIT);
  });

  it('leaves no row and no blob when the client aborts in the middle of the body (real socket)', async () => {
    const id = await createProperty(ctx);
    const before = await blobFiles(ctx.blobRoot);
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.app.server.address() as AddressInfo;
    const { payload, contentType } = multipart(photoParts(pngOf(LIMIT - 300)));
    const socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /v1/properties/${id}/media HTTP/1.1\r\nHost: localhost\r\napikey: ${ctx.tenant.key}\r\n` +
        `Content-Type: ${contentType}\r\nContent-Length: ${payload.length}\r\n\r\n`,
    );
    socket.write(payload.subarray(0, payload.length - 1500)); // the file is half sent
    await sleep(300);
    expect(
      (await blobFiles(ctx.blobRoot)).some((file) => file.includes('.tmp')),
      'the file is being written',
    ).toBe(true);
    socket.destroy();
    for (let i = 0; i < 50 && (await blobFiles(ctx.blobRoot)).length !== before.length; i++) await sleep(50);
    await sleep(200);
    expect(await blobFiles(ctx.blobRoot)).toEqual(before);
    expect(await ctx.db.prisma.propertyMedia.count({ where: { property_id: id } })).toBe(0);
    expect((await ctx.send('GET', `/v1/properties/${id}`)).json().media_count).toBe(0);
    // the app still answers
    expect((await uploadMedia(ctx, id, photoParts(png(2, 2)))).statusCode).toBe(201);
  });
});
