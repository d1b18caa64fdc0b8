import type { ListingWithParts } from './repository.js';
import type { Listing } from './schemas.js';
import type { ListingMediaSnapshot, ListingPropertySnapshot, ListingSnapshot } from './snapshot.js';

/** What the `snapshot` column holds: the property as it was (the media are rows of `listing_media`). */
export interface StoredSnapshot {
  property: ListingPropertySnapshot;
  taken_at: string;
}

const iso = (value: Date | null) => value?.toISOString() ?? null;

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
  return { property: stored.property, media, taken_at: stored.taken_at };
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
    pdf: row.sha256 === null || row.size === null ? null : { size: row.size, sha256: row.sha256 },
    failure_reason: row.failure_reason,
    channels: row.publications.map((p) => ({
      channel_id: p.channel_id,
      channel_name: p.channel.name,
      channel_type: p.channel.type,
      state: p.state,
      reason: p.reason,
      live_at: iso(p.live_at),
      withdrawn_at: iso(p.withdrawn_at),
    })),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    completed_at: iso(row.completed_at),
    published_at: iso(row.published_at),
  };
}
