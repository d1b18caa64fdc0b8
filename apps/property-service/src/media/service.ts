import type { FastifyRequest } from 'fastify';
import { inTransaction } from '@platform/db';
import { ApiError, assertValid, compileBodyValidator } from '@platform/http';
import type { ApiContext } from '@platform/service';
import { attachments } from '@platform/uploads';
import type { PropertyEvents } from '../events.js';
import { propertyRepository } from '../properties/index.js';
import { toMedia, type MediaRow } from './mapping.js';
import { mediaRepository } from './repository.js';
import {
  ALLOWED_TYPES,
  MediaFieldsSchema,
  mediaContentRules,
  type Media,
  type MediaFields,
  type MediaPatch,
} from './schemas.js';

export type MediaServiceDeps = Pick<
  ApiContext<PropertyEvents>,
  'db' | 'cursors' | 'now' | 'emit' | 'storage' | 'sandbox' | 'decodeTimeoutMs'
> & {
  /** Per-file limit in bytes. */
  maxBytes: number;
  /** Pixels an image may have. */
  maxPixels: number;
  /** Media a property may have. */
  maxMedia: number;
};

export type MediaService = ReturnType<typeof createMediaService>;

const validateFields = compileBodyValidator<MediaFields>(MediaFieldsSchema);

const archivedMedia = () =>
  new ApiError('conflict', {
    message: 'The media of an archived property cannot be changed or removed; restore it first.',
  });

/** Form fields are text: `position` becomes a number when it is one, else the schema refuses it. */
function parseFields(raw: Record<string, string>): MediaFields {
  const value: Record<string, unknown> = { ...raw };
  if (raw.position !== undefined && /^\d{1,9}$/.test(raw.position)) value.position = Number(raw.position);
  return assertValid(validateFields, value);
}

/** Photos, floor plans and documents of a property; `media_count` and positions are kept under the property's row lock. */
export function createMediaService({
  db,
  cursors,
  now,
  emit,
  storage,
  sandbox,
  decodeTimeoutMs,
  maxBytes,
  maxPixels,
  maxMedia,
}: MediaServiceDeps) {
  const full = () =>
    new ApiError('validation_failed', {
      message: `A property has at most ${maxMedia} media; delete one before adding another.`,
      details: [{ field: 'media', reason: 'out_of_range' }],
    });
  const view = async (row: MediaRow) =>
    toMedia(row, (await mediaRepository.renditionsOf(db, [row.id])).get(row.id) ?? []);

  const files = attachments(
    { db, storage, sandbox, now, maxBytes },
    {
      parent: {
        find: (d, accountId, id) => propertyRepository.find(d, accountId, id),
        lock: (tx, accountId, id) => propertyRepository.lock(tx, accountId, id),
        refuses: (property) =>
          property.status === 'archived'
            ? new ApiError('conflict', { message: 'An archived property takes no new media; restore it first.' })
            : property.media_count >= maxMedia
              ? full()
              : null,
        frozen: (property) => (property.status === 'archived' ? archivedMedia() : null),
      },
      fields: parseFields,
      allowed: (fields) => ALLOWED_TYPES[fields.kind],
      content: (fields) => mediaContentRules(fields.kind, { maxPixels, timeoutMs: decodeTimeoutMs }),
      async insert(tx, { accountId, parentId, parent, file, fields, at }) {
        const count = parent.media_count;
        const position = Math.min(fields.position ?? count, count);
        if (position < count) await mediaRepository.shift(tx, parentId, position, count - 1, 1);
        return mediaRepository.insert(tx, {
          accountId,
          propertyId: parentId,
          kind: fields.kind,
          title: fields.title ?? null,
          position,
          file,
          at,
        });
      },
      find: (d, accountId, propertyId, id) => mediaRepository.find(d, accountId, propertyId, id),
      async delete(tx, row) {
        const renditions = await mediaRepository.delete(tx, row);
        await mediaRepository.shift(tx, row.property_id, row.position + 1, undefined, -1); // close the gap
        return renditions;
      },
      async counted(tx, { accountId, parentId, delta, at }) {
        await propertyRepository.countMedia(tx, parentId, delta, at);
        await emit(tx, {
          accountId,
          type: 'property.updated',
          data: { property_id: parentId, changed_fields: ['media'] },
          at,
        });
      },
    },
  );

  return {
    /** Streams the upload to storage, decodes it within limits and makes its renditions, then records it; a refused or failed upload leaves no row and no blob. */
    async upload(request: FastifyRequest, accountId: string, propertyId: string): Promise<Media> {
      return view(await files.upload(request, accountId, propertyId));
    },

    async list(accountId: string, propertyId: string, { limit, cursor }: { limit: number; cursor?: string }) {
      await propertyRepository.find(db, accountId, propertyId);
      return mediaRepository.page(db, accountId, propertyId, { cursors, cursor, limit, map: toMedia });
    },

    async get(accountId: string, propertyId: string, id: string): Promise<Media> {
      return view(await mediaRepository.find(db, accountId, propertyId, id));
    },

    /** The stored file's row (for the download). */
    content(accountId: string, propertyId: string, id: string) {
      return mediaRepository.find(db, accountId, propertyId, id);
    },

    /** A rendition's file (for its download). */
    async rendition(accountId: string, propertyId: string, id: string, variant: string) {
      const row = await mediaRepository.findRendition(db, accountId, propertyId, id, variant);
      return { sha256: row.sha256, content_type: row.content_type, filename: `${id}-${variant}.jpg` };
    },

    /** Title and position; a move shifts the media in between so that positions stay 0, 1, 2, ... */
    async update(accountId: string, propertyId: string, id: string, patch: MediaPatch): Promise<Media> {
      const row = await inTransaction(db, async (tx) => {
        const property = await propertyRepository.lock(tx, accountId, propertyId);
        if (property.status === 'archived') throw archivedMedia();
        const current = await mediaRepository.find(tx, accountId, propertyId, id);
        const data: { title?: string | null; position?: number; updated_at?: Date } = {};
        if (patch.title !== undefined && patch.title !== current.title) data.title = patch.title;
        if (patch.position !== undefined) {
          const target = Math.min(patch.position, property.media_count - 1);
          if (target > current.position) await mediaRepository.shift(tx, propertyId, current.position + 1, target, -1);
          if (target < current.position) await mediaRepository.shift(tx, propertyId, target, current.position - 1, 1);
          if (target !== current.position) data.position = target;
        }
        if (Object.keys(data).length === 0) return current;
        data.updated_at = now();
        return mediaRepository.update(tx, id, data);
      });
      return view(row);
    },

    /** Removes the record (closing its gap), then its blob and its renditions' unless another record uses the same content. */
    remove(accountId: string, propertyId: string, id: string): Promise<void> {
      return files.remove(accountId, propertyId, id);
    },
  };
}
