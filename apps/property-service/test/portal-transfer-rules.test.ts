import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSftpServer, type SftpServer } from '@platform/testkit';
import { portalScheduleSql } from '../src/portals/index.js';
import { completedListing, propertyWithPhotos, startPropertyApp, type PropertyTestContext } from './helpers.js';
import { createPortalChannel, documentParts, runTransfer, sftpSettings, unzipped } from './portal-helpers.js';

let ctx: PropertyTestContext;
let sftp: SftpServer;
beforeAll(async () => {
  [ctx, sftp] = await Promise.all([startPropertyApp(), startSftpServer()]);
});
afterAll(() => Promise.all([ctx.close(), sftp.stop()]));

const later = () => (ctx.clock.now = new Date(ctx.clock.now.getTime() + 1_000));
const zips = () => sftp.list().filter((name) => name.endsWith('.zip'));
const channel = async (over: Record<string, unknown> = {}) =>
  (await createPortalChannel(ctx, sftpSettings(sftp, over))).json().id as string;
const publishedListing = async (channelId: string, photos = 1) => {
  const propertyId = await propertyWithPhotos(ctx, {}, ctx.tenant.key, photos);
  const listing = await completedListing(ctx, propertyId);
  await ctx.send('POST', `/v1/listings/${listing.id}/publish`, { channels: [channelId] });
  return { propertyId, listing };
};

describe('portal transfer rules', () => {
  it('sends no empty full transfer before anything was published (it would empty the portal account)', async () => {
    const id = await channel();
    later();
    expect(await runTransfer(ctx, id)).toEqual({ outcome: 'nothing_to_send' });
    expect(zips()).toEqual([]);
    expect((await ctx.send('GET', `/v1/channels/${id}/portal-status`)).json().full_transfer_due).toBe(true);
  });

  it('sends in `voll` mode only when something changed, then everything', async () => {
    const id = await channel({ mode: 'voll' });
    await publishedListing(id);
    later();
    expect(await runTransfer(ctx, id)).toMatchObject({ outcome: 'transferred', umfang: 'VOLL' });
    const files = zips().length;
    later();
    expect(await runTransfer(ctx, id)).toEqual({ outcome: 'nothing_to_send' });
    expect(zips()).toHaveLength(files);
    await publishedListing(id);
    later();
    expect(await runTransfer(ctx, id)).toMatchObject({ outcome: 'transferred', umfang: 'VOLL', objects: 2 });
  });

  it('leaves a photo whose rendition is missing out of its listing, and still sends the listing', async () => {
    const id = await channel();
    const { listing } = await publishedListing(id, 2);
    const [gone] = listing.media as { sha256: string }[];
    await rm(join(ctx.blobRoot, gone.sha256.slice(0, 2), gone.sha256.slice(2, 4), gone.sha256));
    expect(await ctx.storage.exists(gone.sha256)).toBe(false);
    later();
    expect(await runTransfer(ctx, id)).toMatchObject({ outcome: 'transferred', objects: 1 });
    const zip = unzipped(sftp.readFile(zips().at(-1)!));
    const { paths, objects } = documentParts(zip.xml);
    expect(objects).toHaveLength(1); // the listing goes, without the photo that cannot
    expect(paths.some((path) => path.includes(gone.sha256))).toBe(false);
    expect(zip.names.some((name) => name.includes(gone.sha256))).toBe(false);
  });

  it('refuses to delete a portal channel while its portal may still hold a listing (409), then deletes it once the withdrawal is sent', async () => {
    const id = await channel();
    const { listing } = await publishedListing(id);
    later();
    await runTransfer(ctx, id);
    await ctx.send('POST', `/v1/listings/${listing.id}/withdraw`, { channels: [id] });
    const refused = await ctx.send('DELETE', `/v1/channels/${id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/may still hold 1 listing/);
    later();
    expect(await runTransfer(ctx, id)).toMatchObject({ outcome: 'transferred', umfang: 'TEIL' });
    expect((await ctx.send('DELETE', `/v1/channels/${id}`)).statusCode).toBe(204);
  });

  it('fences a run out: a retransfer asked for during a run stands, and a run whose lease was taken over writes nothing', async () => {
    const id = await channel();
    const account = { accountId: ctx.tenant.accountId, channelId: id };
    const db = ctx.db.prisma;
    const first = (await portalScheduleSql.lease(db, id, ctx.clock.now))!;
    const fence = { channelId: id, sequence: first.sequence, generation: first.generation };
    await portalScheduleSql.restart(db, { ...account, at: ctx.clock.now }); // the owner asks again meanwhile
    await portalScheduleSql.succeeded(db, fence, true, ctx.clock.now);
    expect((await portalScheduleSql.find(db, id))!.full_requested).toBe(true);
    await portalScheduleSql.failed(db, fence, { attempts: 1, nextAttemptAt: null, halted: 'refused' }, ctx.clock.now);
    expect((await portalScheduleSql.find(db, id))!.halted_reason).toBeNull();

    later();
    const second = (await portalScheduleSql.lease(db, id, ctx.clock.now))!;
    expect(second.sequence).toBe(first.sequence + 1);
    await portalScheduleSql.release(db, fence); // the old run's release does not free the new run's lease
    expect((await portalScheduleSql.find(db, id))!.lease_until).not.toBeNull();
    expect(await portalScheduleSql.lease(db, id, ctx.clock.now)).toBeNull();
  });
});
