import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFtpServer, type FtpServer } from '@platform/testkit';
import { openImmoSchemaErrors } from './openimmo-schema.js';
import { completedListing, propertyWithPhotos, startPropertyApp, type PropertyTestContext } from './helpers.js';
import { createPortalChannel, documentParts, runTransfer, unzipped } from './portal-helpers.js';

let ctx: PropertyTestContext;
let ftp: FtpServer;
beforeAll(async () => {
  [ctx, ftp] = await Promise.all([startPropertyApp(), startFtpServer()]);
});
afterAll(() => Promise.all([ctx.close(), ftp.stop()]));

const ftpSettings = (over: Record<string, unknown> = {}) => ({
  transfer: 'ftp',
  host: ftp.host,
  port: ftp.port,
  username: ftp.username,
  secret: ftp.password,
  folder: ftp.folder,
  anbieternr: 'FTP-1',
  mode: 'voll',
  ...over,
});

describe('pushing listings to a portal over FTP (vsftpd)', () => {
  it('refuses a user the server does not know, with a 422 naming the login', async () => {
    const res = await createPortalChannel(ctx, ftpSettings({ username: 'bob' }));
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ details: [{ field: 'portal.secret', reason: 'not_allowed' }] });
  });

  it('sends every transfer in full in `voll` mode, each file complete under its final name', async () => {
    const channel = (await createPortalChannel(ctx, ftpSettings())).json();
    expect(channel.portal.host_key_fingerprint).toBeNull();
    const channelId = channel.id as string;
    const propertyId = await propertyWithPhotos(ctx);
    const listingId = (await completedListing(ctx, propertyId)).id as string;
    await ctx.send('POST', `/v1/listings/${listingId}/publish`, { channels: [channelId] });
    for (let round = 1; round <= 2; round++) {
      ctx.clock.now = new Date(ctx.clock.now.getTime() + 1_000);
      if (round === 2) await ctx.send('POST', `/v1/channels/${channelId}/retransfer`);
      expect(await runTransfer(ctx, channelId)).toMatchObject({ outcome: 'transferred', umfang: 'VOLL', objects: 1 });
      const names = ftp.list();
      expect(names).toHaveLength(round);
      expect(names.every((name) => /^FTP-1_\d{14}_\d+\.zip$/.test(name))).toBe(true);
      const zip = unzipped(ftp.readFile(names.at(-1)!));
      expect(openImmoSchemaErrors(zip.xml)).toEqual([]);
      expect(documentParts(zip.xml)).toMatchObject({
        umfang: 'VOLL',
        objects: [{ aktion: 'CHANGE', objectId: propertyId }],
      });
    }
  });
});
