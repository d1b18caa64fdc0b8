import { documentFile, documentState } from '@platform/documents';
import type { ListingWithParts } from './repository.js';
import type { Listing } from './schemas.js';
import type { ListingMediaSnapshot, ListingPropertySnapshot, ListingSnapshot } from './snapshot.js';

/** What the `snapshot` column holds: the property as it was (the media are rows of `listing_media`). */
export interface StoredSnapshot {
  property: ListingPropertySnapshot;
  taken_at: string;
}

const iso = (value: Date | null) => value?.toISOString() ?? null;

/** Fields the property view gained after a snapshot was taken read as their defaults (a snapshot is never rewritten). */
function withLaterFields(property: ListingPropertySnapshot): ListingPropertySnapshot {
  if (!property.commission) return property;
  const defaults = { engaged_by: null, buyer_is_consumer: true, tenant_months: null, landlord_months: null };
  return { ...property, commission: Object.assign(defaults, property.commission) };
}

export function snapshotOf(row: ListingWithParts): ListingSnapshot {
  const stored = row.snapshot as unknown as StoredSnapshot;
  const media: ListingMediaSnapshot[] = row.media.map((m) => ({
    id: m.media_id,
    kind: m.kind,
    title: m.title,
    position: m.position,
    content_type: m.content_type,
    size: m.size,
    sha256: m.sha256,
    width: m.width,
    height: m.height,
  }));
  return { property: withLaterFields(stored.property), media, taken_at: stored.taken_at };
}

export function toListing(row: ListingWithParts): Listing {
  const snapshot = snapshotOf(row);
  return {
    id: row.id,
    property_id: row.property_id,
    status: row.status,
    property: snapshot.property,
    media: snapshot.media,
    pdf_url: row.pdf_url,
    pdf: documentFile(row),
    channels: row.publications.map((p) => ({
      channel_id: p.channel_id,
      channel_name: p.channel.name,
      channel_type: p.channel.type,
      state: p.state,
      reason: p.reason,
      live_at: iso(p.live_at),
      withdrawn_at: iso(p.withdrawn_at),
    })),
    ...documentState(row),
  };
}
