import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCutProxy, startSftpServer, type CutProxy, type SftpServer } from '@platform/testkit';
import {
  completedListing,
  eventData,
  propertyWithPhotos,
  startPropertyApp,
  type PropertyTestContext,
} from './helpers.js';
import { photoParts, uploadMedia } from './media-helpers.js';
import { runPortalTransfer } from '../src/portals/index.js';
import { createPortalChannel, runTransfer, sftpSettings, unzipped } from './portal-helpers.js';

let ctx: PropertyTestContext;
let sftp: SftpServer;
let proxy: CutProxy;
let channelId: string;
beforeAll(async () => {
  [ctx, sftp] = await Promise.all([startPropertyApp(), startSftpServer()]);
  channelId = (await createPortalChannel(ctx, sftpSettings(sftp))).json().id;
  // A photo of noise: its rendition stays large (~1 MB), so an upload can be cut in its middle.
  const noise = await sharp({
    create: {
      width: 1600,
      height: 1200,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 60 },
    },
  })
    .jpeg({ quality: 92 })
    .toBuffer();
  const propertyId = await propertyWithPhotos(ctx);
  expect((await uploadMedia(ctx, propertyId, photoParts(noise, [], 'image/jpeg', 'noise.jpg'))).statusCode).toBe(201);
  const listingId = (await completedListing(ctx, propertyId)).id as string;
  await ctx.send('POST', `/v1/listings/${listingId}/publish`, { channels: [channelId] });
  proxy = await startCutProxy({ host: sftp.host, port: sftp.port }, { cutAfterBytes: 200_000 });
});
afterAll(() => Promise.all([ctx.close(), sftp.stop(), proxy.stop()]));

const account = () => ctx.db.prisma.portalAccount.findUniqueOrThrow({ where: { channel_id: channelId } });
/** Changes the stored account behind the API's back: the network or the portal changed, not the settings. */
const storeAccount = (data: { port?: number; username?: string; host_key_fingerprint?: string }) =>
  ctx.db.prisma.portalAccount.update({ where: { channel_id: channelId }, data });
const status = async () => (await ctx.send('GET', `/v1/channels/${channelId}/portal-status`)).json();
const later = (ms: number) => (ctx.clock.now = new Date(ctx.clock.now.getTime() + ms));
const zips = () => sftp.list().filter((name) => name.endsWith('.zip'));

describe('a transfer that fails', () => {
  it('is retried after a minute when the connection drops mid-upload, and leaves no complete-looking file', async () => {
    await storeAccount({ port: proxy.port });
    later(1_000);
    expect(await runTransfer(ctx, channelId)).toMatchObject({ outcome: 'failed', umfang: 'VOLL' });
    expect(proxy.forwarded()).toBeGreaterThanOrEqual(200_000);
    expect(zips()).toEqual([]); // at most a temporary `.part` file, never one under the final name

    const failed = await status();
    expect(failed).toMatchObject({ failures_in_a_row: 1, halted_reason: null, full_transfer_due: true });
    expect(new Date(failed.next_attempt_at).getTime()).toBe(ctx.clock.now.getTime() + 60_000);
    expect(failed.listings[0]).toMatchObject({
      state: 'pending',
      reason: expect.stringMatching(/connection was lost/),
    });
    const [event] = await eventData(ctx, 'portal_transfer.failed');
    expect(event).toMatchObject({ retrying: true, next_attempt_at: failed.next_attempt_at });

    later(30_000);
    expect(await runTransfer(ctx, channelId)).toEqual({ outcome: 'not_due' });
    await storeAccount({ port: sftp.port });
    later(31_000);
    expect(await runTransfer(ctx, channelId)).toMatchObject({ outcome: 'transferred', umfang: 'VOLL' });
    expect(zips()).toHaveLength(1);
    expect(unzipped(sftp.readFile(zips()[0]!)).xml).toContain('umfang="VOLL"');
    expect(await status()).toMatchObject({ failures_in_a_row: 0, full_transfer_due: false });
    expect((await status()).listings[0].state).toBe('transferred');
  });

  it('halts at once when the portal refuses the login, and stays halted until a retransfer after a fix', async () => {
    await ctx.send('POST', `/v1/channels/${channelId}/retransfer`);
    await storeAccount({ username: 'gesperrt' });
    later(1_000);
    expect(await runTransfer(ctx, channelId)).toMatchObject({ outcome: 'failed' });
    const halted = await status();
    expect(halted.halted_reason).toMatch(/refused the credentials/);
    expect(halted.next_attempt_at).toBeNull();
    expect(halted.listings[0]).toMatchObject({ state: 'failed' });
    expect((await eventData(ctx, 'portal_transfer.failed')).at(-1)).toMatchObject({
      retrying: false,
      next_attempt_at: null,
    });

    later(7 * 3_600_000);
    expect(await runTransfer(ctx, channelId)).toEqual({ outcome: 'not_due' });
    // The owner fixes the account: the change connects first, then resumes the channel with a full transfer.
    const fixed = await ctx.send('PATCH', `/v1/channels/${channelId}`, { portal: { username: sftp.username } });
    expect(fixed.statusCode).toBe(200);
    expect(await status()).toMatchObject({ halted_reason: null, full_transfer_due: true, failures_in_a_row: 0 });
    later(1_000);
    expect(await runTransfer(ctx, channelId)).toMatchObject({ outcome: 'transferred', umfang: 'VOLL' });
  });

  it('gives up after the fifth failure in a row (1m, 5m, 30m, 2h, 6h), then only a retransfer resumes it', async () => {
    await ctx.send('POST', `/v1/channels/${channelId}/retransfer`);
    await storeAccount({ port: 1 }); // refused: a portal that is down
    const pauses = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 6 * 3_600_000];
    for (const [i, pause] of pauses.entries()) {
      later(1_000);
      expect(await runTransfer(ctx, channelId)).toMatchObject({ outcome: 'failed' });
      const after = await status();
      expect(after.failures_in_a_row).toBe(i + 1);
      expect(new Date(after.next_attempt_at).getTime()).toBe(ctx.clock.now.getTime() + pause);
      later(pause);
    }
    later(1_000);
    expect(await runTransfer(ctx, channelId)).toMatchObject({ outcome: 'failed' });
    const given = await status();
    expect(given.halted_reason).toMatch(/cannot be reached/);
    expect(given.listings[0].state).toBe('failed');
    later(24 * 3_600_000);
    expect(await runTransfer(ctx, channelId)).toEqual({ outcome: 'not_due' });
    await storeAccount({ port: sftp.port });
    await ctx.send('POST', `/v1/channels/${channelId}/retransfer`);
    later(1_000);
    expect(await runTransfer(ctx, channelId)).toMatchObject({ outcome: 'transferred' });
    expect((await account()).port).toBe(sftp.port);
  });

  it('halts when the deployment no longer allows the host (private targets switched off), sending nothing', async () => {
    await ctx.send('POST', `/v1/channels/${channelId}/retransfer`);
    later(1_000);
    const before = zips().length;
    const strict = await runPortalTransfer(
      {
        db: ctx.db.prisma,
        now: ctx.clock.now,
        storage: ctx.storage,
        secrets: ctx.webhooks.secrets,
        targets: { allowPrivateTargets: false },
      },
      channelId,
    );
    expect(strict).toMatchObject({ outcome: 'failed' });
    expect((await status()).halted_reason).toMatch(/private, loopback or reserved/);
    expect(zips()).toHaveLength(before);
  });

  it('halts when the server shows another host key than the one kept at the first login (a server in between)', async () => {
    const kept = (await account()).host_key_fingerprint!;
    expect(kept).toBe(sftp.hostKeyFingerprint);
    await storeAccount({ host_key_fingerprint: `SHA256:${'B'.repeat(43)}` });
    await ctx.send('POST', `/v1/channels/${channelId}/retransfer`);
    later(1_000);
    const before = zips().length;
    expect(await runTransfer(ctx, channelId)).toMatchObject({ outcome: 'failed' });
    expect((await status()).halted_reason).toMatch(/could not be verified/);
    expect(zips()).toHaveLength(before);
    await storeAccount({ host_key_fingerprint: kept });
  });
});
