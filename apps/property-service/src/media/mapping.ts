import type { Prisma } from '@platform/db';
import type { Media } from './schemas.js';

export type MediaRow = Prisma.PropertyMediaGetPayload<object>;

export function toMedia(row: MediaRow): Media {
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
    content_url: `/v1/properties/${row.property_id}/media/${row.id}/content`,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
