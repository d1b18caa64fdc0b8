import type { Prisma } from '@platform/db';
import type { Media, Rendition } from './schemas.js';

export type MediaRow = Prisma.PropertyMediaGetPayload<object>;
export type RenditionRow = Prisma.MediaRenditionGetPayload<object>;

const mediaUrl = (row: Pick<MediaRow, 'id' | 'property_id'>) => `/v1/properties/${row.property_id}/media/${row.id}`;

export function toRendition(media: Pick<MediaRow, 'id' | 'property_id'>, row: RenditionRow): Rendition {
  return {
    variant: row.variant as Rendition['variant'],
    content_type: 'image/jpeg',
    size: row.size,
    sha256: row.sha256,
    width: row.width,
    height: row.height,
    content_url: `${mediaUrl(media)}/renditions/${row.variant}`,
  };
}

/** The view of a medium; `renditions` are its rows in `media_renditions` (large first). */
export function toMedia(row: MediaRow, renditions: readonly RenditionRow[]): Media {
  return {
    id: row.id,
    property_id: row.property_id,
    kind: row.kind,
    title: row.title,
    position: row.position,
    content_type: row.content_type,
    size: row.size,
    sha256: row.sha256,
    filename: row.filename,
    width: row.width,
    height: row.height,
    content_url: `${mediaUrl(row)}/content`,
    renditions: [...renditions].sort((a, b) => b.width * b.height - a.width * a.height).map((r) => toRendition(row, r)),
    rendition_failure: row.rendition_failure,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
