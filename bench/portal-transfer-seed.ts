// The data of bench/portal-transfer.ts, written straight into the tables (createMany), not through
// the API: one account, a `portal` channel whose import account is a real sshd, and `listings`
// properties, each with one published listing live on the channel whose `photos` large renditions
// are distinct noise JPEGs in a filesystem BlobStorage (every photo its own blob).
import { Readable } from 'node:stream';
import { newIds, type Db } from '@platform/db';
import type { BlobStorage } from '@platform/storage';
import type { SftpServer } from '@platform/testkit';
import type { SecretBox } from '@platform/webhooks';
import { basesFor, noiseFamilyOfSize } from './photos.js';
import { portalScheduleSql } from '../apps/property-service/src/portals/index.js';
import { toColumns, toProperty } from '../apps/property-service/src/properties/mapping.js';

export const ACCOUNT_ID = 'acct_bench';
export const CHANNEL_ID = 'chan_bench_portal';

/** A large rendition as the listing's media rows name it. */
export interface SeededPhoto {
  sha256: string;
  size: number;
}

export interface SeedOptions {
  listings: number;
  photos: number;
  /** Target size of each JPEG in bytes. */
  photoBytes: number;
}

/** Rows per createMany (PostgreSQL takes at most 65,535 bind parameters per statement). */
const CHUNK = 2_000;

async function createInChunks<T>(rows: readonly T[], create: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let at = 0; at < rows.length; at += CHUNK) await create(rows.slice(at, at + CHUNK));
}

/** `count` distinct JPEGs of about `bytes` each, put into storage 8 at a time; their addresses and sizes. */
async function storePhotos(storage: BlobStorage, count: number, bytes: number) {
  const { family, width, height } = await noiseFamilyOfSize(bytes, 80, basesFor(count, 4));
  const photos: SeededPhoto[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < count) {
        const index = next++;
        const stored = await storage.put(Readable.from([family.next()]));
        photos[index] = { sha256: stored.sha256, size: stored.size };
      }
    }),
  );
  return { photos, width, height };
}

/** A property as the API would take it (its columns through the service's own mapping). */
const propertyInput = (i: number) => ({
  type: 'apartment' as const,
  title: `Helle Wohnung Nr. ${i} am Südpark`,
  description: 'Ruhige Lage, großer Balkon, Einbauküche, Parkett, Keller. '.repeat(12),
  address: {
    street: `Parkstraße ${(i % 180) + 1}`,
    postal_code: '10115',
    city: 'Berlin',
    country: 'DE',
    location_precision: 'street' as const,
  },
  living_area_sqm: 48 + (i % 60),
  rooms: 1 + (i % 5),
  year_built: 1960 + (i % 60),
  floor: i % 6,
  purchase_price_eur: 250_000 + i * 1_000,
  commission: { buyer_percent: 3.57, seller_percent: 3.57, engaged_by: 'both' as const },
  energy_certificate: {
    type: 'demand' as const,
    final_energy_demand_kwh: 85.5,
    energy_source: 'Fernwärme',
    efficiency_class: 'C' as const,
    valid_until: '2031-05-01',
  },
});

/** The channel, its import account at `sftp` (secret encrypted with `box`) and a full transfer due now. */
export async function seedChannel(db: Db, sftp: SftpServer, box: SecretBox, at: Date): Promise<void> {
  await db.channel.create({
    data: {
      id: CHANNEL_ID,
      account_id: ACCOUNT_ID,
      type: 'portal',
      name: 'Portal (bench)',
      feed_token: 'bench'.padEnd(64, '0'),
      contact_name: 'Vertriebsteam Mitte',
      contact_company: 'Muster Immobilien GmbH',
      contact_email: 'vertrieb@muster-immobilien.example',
      contact_phone: '+49 30 1234567',
      created_at: at,
      updated_at: at,
    },
  });
  await db.portalAccount.create({
    data: {
      channel_id: CHANNEL_ID,
      account_id: ACCOUNT_ID,
      protocol: 'sftp',
      host: sftp.host,
      port: sftp.port,
      username: sftp.username,
      secret_encrypted: box.encrypt(sftp.privateKey),
      folder: sftp.folder,
      anbieternr: 'ANB-BENCH',
      mode: 'teil',
    },
  });
  await portalScheduleSql.restart(db, { accountId: ACCOUNT_ID, channelId: CHANNEL_ID, at });
}

/**
 * `listings` properties with one published listing each, live on the channel, each listing with
 * `photos` photos (large rendition: its own stored JPEG; thumbnail: one shared small blob, never
 * transferred). Resolves to each property's listing and photos, and the photos' shapes.
 */
export async function seedListings(db: Db, storage: BlobStorage, options: SeedOptions, at: Date) {
  const { listings, photos } = options;
  const stored = await storePhotos(storage, listings * photos, options.photoBytes);
  const small = await storage.put(Readable.from([Buffer.from('a thumbnail: never transferred, never read')]));
  const thumbnail: SeededPhoto = { sha256: small.sha256, size: small.size };
  const propertyIds = newIds('prop', listings, at.getTime());
  await createInChunks(
    propertyIds.map((id, i) => ({
      id,
      account_id: ACCOUNT_ID,
      status: 'active' as const,
      ...toColumns(propertyInput(i), 'DE'),
      created_at: at,
      updated_at: at,
    })),
    (data) => db.property.createMany({ data }),
  );
  const properties = await db.property.findMany({ where: { account_id: ACCOUNT_ID }, orderBy: { id: 'asc' } });
  const listingIds = newIds('lst', listings, at.getTime());
  const mediaIds = newIds('med', listings * photos, at.getTime());
  const byProperty = new Map<string, { listingId: string; photos: SeededPhoto[] }>();
  const listingRows = properties.map((row, i) => {
    const {
      status: _s,
      transaction: _t,
      media_count: _m,
      created_at: _c,
      updated_at: _u,
      ...property
    } = toProperty(row);
    byProperty.set(row.id, { listingId: listingIds[i]!, photos: stored.photos.slice(i * photos, (i + 1) * photos) });
    return {
      id: listingIds[i]!,
      account_id: ACCOUNT_ID,
      property_id: row.id,
      status: 'published' as const,
      snapshot: { property, taken_at: at.toISOString() },
      pdf_url: `http://localhost/v1/listings/${listingIds[i]}/pdf`,
      sha256: thumbnail.sha256,
      size: thumbnail.size,
      created_at: at,
      updated_at: at,
      completed_at: at,
      published_at: at,
    };
  });
  await createInChunks(listingRows, (data) => db.listing.createMany({ data }));
  const shapes: PhotoShapes = { width: stored.width, height: stored.height, thumbnail };
  await seedMediaAndPublications(db, [...byProperty.values()], shapes, mediaIds, at);
  return { listings: byProperty, shapes };
}

/** The pixel size of the large renditions and the one thumbnail blob the media rows name. */
export interface PhotoShapes {
  width: number;
  height: number;
  thumbnail: SeededPhoto;
}

/** The media rows (large and thumbnail per photo) and the live publication of each listing. */
export async function seedMediaAndPublications(
  db: Db,
  listings: readonly { listingId: string; photos: readonly SeededPhoto[] }[],
  shapes: PhotoShapes,
  mediaIds: readonly string[],
  at: Date,
): Promise<void> {
  const rowIds = newIds('lmed', mediaIds.length * 2, at.getTime());
  let m = 0;
  const media = listings.flatMap(({ listingId, photos }) =>
    photos.flatMap((photo, position) => {
      const mediaId = mediaIds[m++]!;
      const common = {
        listing_id: listingId,
        account_id: ACCOUNT_ID,
        position,
        media_id: mediaId,
        kind: 'photo' as const,
        title: position === 0 ? 'Ansicht' : `Foto ${position + 1}`,
        content_type: 'image/jpeg',
      };
      return [
        { ...common, id: rowIds[2 * m - 2]!, variant: 'large', ...photo, width: shapes.width, height: shapes.height },
        { ...common, id: rowIds[2 * m - 1]!, variant: 'thumbnail', ...shapes.thumbnail, width: 320, height: 240 },
      ];
    }),
  );
  await createInChunks(media, (data) => db.listingMedia.createMany({ data }));
  await createInChunks(
    listings.map(({ listingId }) => ({
      listing_id: listingId,
      channel_id: CHANNEL_ID,
      account_id: ACCOUNT_ID,
      state: 'live' as const,
      live_at: at,
      updated_at: at,
    })),
    (data) => db.listingPublication.createMany({ data }),
  );
}

/**
 * A newer listing for each of `propertyIds` (the price raised by 5,000 €, the same photos), live on
 * the channel, the older one withdrawn there: what publishing a changed property does.
 */
export async function changeListings(
  db: Db,
  listings: ReadonlyMap<string, { listingId: string; photos: SeededPhoto[] }>,
  propertyIds: readonly string[],
  shapes: PhotoShapes,
  at: Date,
): Promise<void> {
  const ids = newIds('lst', propertyIds.length, at.getTime());
  const olds = await db.listing.findMany({ where: { id: { in: propertyIds.map((p) => listings.get(p)!.listingId) } } });
  const byId = new Map(olds.map((row) => [row.id, row]));
  const newer = propertyIds.map((propertyId, i) => {
    const old = byId.get(listings.get(propertyId)!.listingId)!;
    const snapshot = old.snapshot as { property: { purchase_price_eur: number }; taken_at: string };
    const property = { ...snapshot.property, purchase_price_eur: snapshot.property.purchase_price_eur + 5_000 };
    return {
      ...old,
      id: ids[i]!,
      snapshot: { property, taken_at: at.toISOString() },
      pdf_url: `http://localhost/v1/listings/${ids[i]}/pdf`,
      created_at: at,
      updated_at: at,
      completed_at: at,
      published_at: at,
    };
  });
  await db.listingPublication.updateMany({
    where: { channel_id: CHANNEL_ID, listing_id: { in: olds.map((o) => o.id) } },
    data: { state: 'withdrawn', withdrawn_at: at, updated_at: at },
  });
  await db.listing.createMany({ data: newer.map((row) => ({ ...row, snapshot: row.snapshot })) });
  const changed = propertyIds.map((propertyId, i) => ({
    listingId: ids[i]!,
    photos: listings.get(propertyId)!.photos,
  }));
  const mediaIds = newIds('med', changed.length * (changed[0]?.photos.length ?? 0), at.getTime());
  await seedMediaAndPublications(db, changed, shapes, mediaIds, at);
  for (const [i, propertyId] of propertyIds.entries()) listings.get(propertyId)!.listingId = ids[i]!;
}
