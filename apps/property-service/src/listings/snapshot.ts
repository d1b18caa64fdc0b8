import type { Property } from '../properties/index.js';

/** A rendition's blob and size. */
export interface RenditionSnapshot {
  sha256: string;
  size: number;
  width: number;
  height: number;
}

/**
 * A photo or floor plan of the property as it was when the listing was generated: its published
 * rendition (`large`: `sha256` and the rest), and its thumbnail; the blobs stay in storage.
 */
export interface ListingMediaSnapshot {
  id: string;
  kind: 'photo' | 'floor_plan' | 'document';
  title: string | null;
  /** Order in the exposé, from 0 (the first photo is the cover). */
  position: number;
  content_type: string;
  size: number;
  sha256: string;
  width: number | null;
  height: number | null;
  thumbnail: RenditionSnapshot | null;
  /** False for the media of a listing generated before renditions: the tenant's own file, never published. */
  published: boolean;
}

/** The property's data copied into the listing when it is generated: later updates of the property never change it. */
export type ListingPropertySnapshot = Omit<
  Property,
  'status' | 'transaction' | 'media_count' | 'created_at' | 'updated_at'
>;

export interface ListingSnapshot {
  property: ListingPropertySnapshot;
  /** Every medium in position order. */
  media: ListingMediaSnapshot[];
  /** When the snapshot was taken (RFC 3339); the PDF's metadata dates, so that the same snapshot gives the same bytes. */
  taken_at: string;
}

/** Whether a medium may leave the system: a rendition of a photo or floor plan; a document or a tenant's own file never. */
export const isPublished = (medium: ListingMediaSnapshot): boolean => medium.published && medium.kind !== 'document';
