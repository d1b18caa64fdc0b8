import { documentFile, documentState } from '@platform/documents';
import type { ChannelRow } from '../channels/index.js';
import { LARGE, THUMBNAIL } from '../media/index.js';
import { houseNumberOf } from '../street.js';
import type { ListingWithParts } from './repository.js';
import type { Listing } from './schemas.js';
import type { ListingMediaSnapshot, ListingPropertySnapshot, ListingSnapshot } from './snapshot.js';

/** What the `snapshot` column holds: the property as it was (the media are rows of `listing_media`). */
export interface StoredSnapshot {
  property: ListingPropertySnapshot;
  taken_at: string;
}

type MediaRow = ListingWithParts['media'][number];

/** A channel as a listing's view names it (channels/' row). */
export type PublicationChannel = Pick<ChannelRow, 'id' | 'name' | 'type'>;

/** The variants of a medium's rows that a listing publishes; `original` rows (older listings) are shown, never published. */
export const PUBLISHED_VARIANTS: readonly string[] = [LARGE, THUMBNAIL];

const iso = (value: Date | null) => value?.toISOString() ?? null;

/** Fields the property view gained after a snapshot was taken read as their defaults (a snapshot is never rewritten). */
function withLaterFields(stored: ListingPropertySnapshot): ListingPropertySnapshot {
  const { address } = stored;
  const property =
    address.house_number === undefined
      ? { ...stored, address: { ...address, house_number: houseNumberOf(address.street, null) } }
      : stored;
  if (!property.commission) return property;
  const defaults = { engaged_by: null, buyer_is_consumer: true, tenant_months: null, landlord_months: null };
  return { ...property, commission: Object.assign(defaults, property.commission) };
}

/** One medium from its rows (one per variant), in position order. */
function mediaOf(rows: readonly MediaRow[]): ListingMediaSnapshot[] {
  const byPosition = new Map<number, MediaRow[]>();
  for (const row of rows) byPosition.set(row.position, [...(byPosition.get(row.position) ?? []), row]);
  return [...byPosition.entries()]
    .sort(([a], [b]) => a - b)
    .flatMap(([, variants]) => {
      const main = variants.find((v) => v.variant === LARGE) ?? variants.find((v) => v.variant === 'original');
      if (!main) return [];
      const thumbnail = variants.find((v) => v.variant === THUMBNAIL);
      return [
        {
          id: main.media_id,
          kind: main.kind,
          title: main.title,
          position: main.position,
          content_type: main.content_type,
          size: main.size,
          sha256: main.sha256,
          width: main.width,
          height: main.height,
          thumbnail: thumbnail
            ? {
                sha256: thumbnail.sha256,
                size: thumbnail.size,
                width: thumbnail.width ?? 0,
                height: thumbnail.height ?? 0,
              }
            : null,
          published: main.variant === LARGE,
        },
      ];
    });
}

export function snapshotOf(row: ListingWithParts): ListingSnapshot {
  const stored = row.snapshot as unknown as StoredSnapshot;
  return { property: withLaterFields(stored.property), media: mediaOf(row.media), taken_at: stored.taken_at };
}

/**
 * The listing's view. `channels` are (at least) the channels of its publications, in the channels'
 * order (created, then id), as channels/ gives them: its publications are shown in that order; one
 * whose channel is not among them (deleted meanwhile, which deletes its publications) is left out.
 */
export function toListing(row: ListingWithParts, channels: readonly PublicationChannel[]): Listing {
  const snapshot = snapshotOf(row);
  const publications = new Map(row.publications.map((p) => [p.channel_id, p]));
  return {
    id: row.id,
    property_id: row.property_id,
    status: row.status,
    property: snapshot.property,
    media: snapshot.media,
    pdf_url: row.pdf_url,
    pdf: documentFile(row),
    channels: channels.flatMap((channel) => {
      const p = publications.get(channel.id);
      if (!p) return [];
      return [
        {
          channel_id: p.channel_id,
          channel_name: channel.name,
          channel_type: channel.type,
          state: p.state,
          reason: p.reason,
          live_at: iso(p.live_at),
          withdrawn_at: iso(p.withdrawn_at),
        },
      ];
    }),
    ...documentState(row),
  };
}
