// Issue 33, item 1: `make-media-renditions` run twice at once (a run still going when the next one starts
// ten minutes later, or a stalled job taken over by a second worker) decodes each older medium once,
// records its renditions or its failure once, and the two runs' counts add up to the media there were.
// The overlap is forced: a transaction holds the media's rows while both runs start, so each run has
// read the same list of media before either has written anything.
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@platform/db';
import type { Sandbox } from '@platform/sandbox';
import { whileHeld } from '@platform/testkit';
import { jpeg } from '@platform/uploads/testing';
import { pngWithBrokenZlib } from '@platform/uploads/testing/hostile';
import { MEDIA_RENDITIONS_JOB } from '../src/media/index.js';
import { startPropertyApp, validProperty, type PropertyTestContext } from './helpers.js';

let ctx: PropertyTestContext;
beforeAll(async () => {
  ctx = await startPropertyApp();
});
afterAll(() => ctx.close());

/** The sandbox, counting the tasks it is given (one decode per photo). */
function countingSandbox(): Sandbox & { tasks: number } {
  const sandbox = ctx.sandbox;
  return {
    tasks: 0,
    run(task, input, options) {
      this.tasks++;
      return sandbox.run(task, input, options);
    },
    close: () => sandbox.close(),
    get size() {
      return sandbox.size;
    },
  };
}

/** A photo as an older version stored it: the blob and the row, no renditions. */
async function legacyPhoto(propertyId: string, contentType: string, data: Buffer, position: number) {
  const blob = await ctx.storage.put(Readable.from([data]));
  const at = new Date(Date.now() + position); // listed by created_at: in this order
  const id = newId('med', at.getTime());
  await ctx.db.prisma.propertyMedia.create({
    data: {
      id,
      account_id: ctx.tenant.accountId,
      property_id: propertyId,
      kind: 'photo',
      title: null,
      position,
      content_type: contentType,
      size: blob.size,
      sha256: blob.sha256,
      filename: 'old',
      width: 1,
      height: 1,
      created_at: at,
      updated_at: at,
    },
  });
  await ctx.db.prisma.property.update({ where: { id: propertyId }, data: { media_count: { increment: 1 } } });
  return id;
}

describe('overlapping make-media-renditions runs', () => {
  it('two runs that read the same media decode each once and report 2 made and 2 failed together, not each', async () => {
    const propertyId = (await ctx.send('POST', '/v1/properties', validProperty())).json().id as string;
    const good = [
      await legacyPhoto(propertyId, 'image/jpeg', jpeg(400, 300, 'overlap one'), 0),
      await legacyPhoto(propertyId, 'image/jpeg', jpeg(400, 300, 'overlap two'), 2),
    ];
    const broken = [
      await legacyPhoto(propertyId, 'image/png', pngWithBrokenZlib(), 1),
      await legacyPhoto(propertyId, 'image/png', Buffer.concat([pngWithBrokenZlib(), Buffer.from('x')]), 3),
    ];
    const sandbox = countingSandbox();
    const run = () =>
      MEDIA_RENDITIONS_JOB.run(
        { db: ctx.db.prisma, now: ctx.clock.now, storage: ctx.storage, sandbox, jobs: ctx.jobs },
        {},
      ) as Promise<{ made: number; failed: number }>;
    const { result, waited } = await whileHeld(
      ctx.db,
      (tx) => tx.$queryRaw`SELECT id FROM property_media WHERE property_id = ${propertyId} FOR UPDATE`,
      () => Promise.all([run(), run()]),
      2,
    );
    expect(waited).toBe(2);
    expect(result[0].made + result[1].made).toBe(good.length);
    expect(result[0].failed + result[1].failed).toBe(broken.length);
    expect(sandbox.tasks).toBe(good.length + broken.length); // each medium decoded by one run only
    for (const id of good) expect(await ctx.db.prisma.mediaRendition.count({ where: { media_id: id } })).toBe(2); // large and thumbnail, once
    for (const id of broken)
      expect(await ctx.db.prisma.propertyMedia.findUniqueOrThrow({ where: { id } })).toMatchObject({
        rendition_failure: expect.stringMatching(/cannot be decoded/),
      });
  });
});
