import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSftpServer, type SftpServer } from '@platform/testkit';
import { openImmoSchemaErrors } from './openimmo-schema.js';
import {
  completedListing,
  eventData,
  propertyWithPhotos,
  startPropertyApp,
  type PropertyTestContext,
} from './helpers.js';
import { createPortalChannel, documentParts, runTransfer, sftpSettings, unzipped } from './portal-helpers.js';

let ctx: PropertyTestContext;
let sftp: SftpServer;
let channelId: string;
beforeAll(async () => {
  [ctx, sftp] = await Promise.all([startPropertyApp(), startSftpServer()]);
  channelId = (await createPortalChannel(ctx, sftpSettings(sftp))).json().id;
});
afterAll(() => Promise.all([ctx.close(), sftp.stop()]));

const publish = async (listingId: string) =>
  expect((await ctx.send('POST', `/v1/listings/${listingId}/publish`, { channels: [channelId] })).statusCode).toBe(200);
const tick = () => (ctx.clock.now = new Date(ctx.clock.now.getTime() + 1_000));
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const zips = () => sftp.list().filter((name) => name.endsWith('.zip'));

/** The newest ZIP on the server, read back with unzip. */
const lastZip = () => unzipped(sftp.readFile(zips().at(-1)!));

let first: { propertyId: string; listingId: string };
let second: { propertyId: string; listingId: string };

describe('pushing listings to a portal', () => {
  it('sends the first transfer in full: a ZIP with openimmo.xml valid against the official XSD and every photo inside it', async () => {
    for (const slot of ['first', 'second'] as const) {
      const propertyId = await propertyWithPhotos(ctx, {}, ctx.tenant.key, 2);
      const listingId = (await completedListing(ctx, propertyId)).id as string;
      await publish(listingId);
      if (slot === 'first') first = { propertyId, listingId };
      else second = { propertyId, listingId };
    }
    tick();
    const result = await runTransfer(ctx, channelId);
    expect(result).toMatchObject({ outcome: 'transferred', umfang: 'VOLL', objects: 2 });

    expect(sftp.list()).toHaveLength(1); // no temporary file left beside it
    expect(zips()[0]).toMatch(/^ANB-42_\d{14}_\d+\.zip$/);
    const zip = lastZip();
    expect(openImmoSchemaErrors(zip.xml)).toEqual([]);
    const { paths, objects, umfang } = documentParts(zip.xml);
    expect(umfang).toBe('VOLL');
    expect(objects.map((o) => o.objectId).sort()).toEqual([first.propertyId, second.propertyId].sort());
    expect(paths.length).toBeGreaterThanOrEqual(4);
    for (const path of paths) {
      const bytes = zip.entry(path);
      expect(bytes, path).toBeDefined();
      // Inside the ZIP under its content address: the bytes are the stored rendition's.
      expect(path).toContain(sha256(bytes!));
    }
    expect(zip.names.sort()).toEqual(['openimmo.xml', ...new Set(paths)].sort());

    const status = (await ctx.send('GET', `/v1/channels/${channelId}/portal-status`)).json();
    expect(status).toMatchObject({ full_transfer_due: false, failures_in_a_row: 0, halted_reason: null });
    expect(status.listings.map((l: { state: string }) => l.state)).toEqual(['transferred', 'transferred']);
    const transfers = (await ctx.send('GET', `/v1/channels/${channelId}/transfers`)).json();
    expect(transfers.data).toHaveLength(1);
    expect(transfers.data[0]).toMatchObject({ umfang: 'VOLL', state: 'transferred', objects: 2, file_name: zips()[0] });
    expect(transfers.data[0].bytes).toBe(sftp.readFile(zips()[0]!).length);
    const [event] = await eventData(ctx, 'portal_transfer.succeeded');
    expect(event).toMatchObject({ channel_id: channelId, umfang: 'VOLL', file_name: zips()[0] });
    expect(event!.listings).toHaveLength(2);
  });

  it('sends nothing when nothing changed', async () => {
    tick();
    expect(await runTransfer(ctx, channelId)).toEqual({ outcome: 'nothing_to_send' });
    expect(zips()).toHaveLength(1);
  });

  it('sends a withdrawal and a newer listing of a property as one partial transfer: DELETE and CHANGE', async () => {
    await ctx.send('POST', `/v1/listings/${first.listingId}/withdraw`, { channels: [channelId] });
    const newer = (await completedListing(ctx, second.propertyId)).id as string;
    await publish(newer);
    tick();
    expect(await runTransfer(ctx, channelId)).toMatchObject({ outcome: 'transferred', umfang: 'TEIL', objects: 2 });

    expect(zips()).toHaveLength(2);
    const zip = lastZip();
    expect(openImmoSchemaErrors(zip.xml)).toEqual([]);
    const { objects, umfang, paths } = documentParts(zip.xml);
    expect(umfang).toBe('TEIL');
    expect(objects).toEqual(
      expect.arrayContaining([
        { aktion: 'DELETE', objectId: first.propertyId },
        { aktion: 'CHANGE', objectId: second.propertyId },
      ]),
    );
    expect(objects).toHaveLength(2);
    // Only the changed listing's photos travel; a deletion carries none.
    for (const path of paths) expect(zip.entry(path)).toBeDefined();

    const status = (await ctx.send('GET', `/v1/channels/${channelId}/portal-status`)).json();
    const byProperty = Object.fromEntries(status.listings.map((l: { property_id: string }) => [l.property_id, l]));
    expect(byProperty[first.propertyId]).toMatchObject({ aktion: 'DELETE', state: 'transferred' });
    expect(byProperty[second.propertyId]).toMatchObject({ aktion: 'CHANGE', state: 'transferred', listing_id: newer });
  });

  it('sends everything again on a retransfer, as a full transfer without the deleted listing', async () => {
    tick();
    const asked = await ctx.send('POST', `/v1/channels/${channelId}/retransfer`);
    expect(asked.statusCode).toBe(202);
    expect(asked.json().full_transfer_due).toBe(true);
    tick();
    expect(await runTransfer(ctx, channelId)).toMatchObject({ outcome: 'transferred', umfang: 'VOLL', objects: 1 });
    const { objects, umfang } = documentParts(lastZip().xml);
    expect(umfang).toBe('VOLL');
    expect(objects).toEqual([{ aktion: 'CHANGE', objectId: second.propertyId }]);
    expect(new Set(zips()).size).toBe(3); // every file has its own name
  });

  it('takes an archived property off the portal with the next transfer', async () => {
    await ctx.send('POST', `/v1/properties/${second.propertyId}/archive`);
    tick();
    expect(await runTransfer(ctx, channelId)).toMatchObject({ outcome: 'transferred', umfang: 'TEIL', objects: 1 });
    expect(documentParts(lastZip().xml).objects).toEqual([{ aktion: 'DELETE', objectId: second.propertyId }]);
  });
});
