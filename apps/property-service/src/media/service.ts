import type { FastifyRequest } from 'fastify';
import { inTransaction, newId } from '@platform/db';
import { ApiError, assertValid, compileBodyValidator } from '@platform/http';
import type { ApiContext } from '@platform/service';
import { attachments } from '@platform/uploads';
import type { PropertyEvents } from '../events.js';
import { propertyRepository } from '../properties/index.js';
import { toMedia } from './mapping.js';
import { mediaRepository } from './repository.js';
import { ALLOWED_TYPES, MediaFieldsSchema, type Media, type MediaFields, type MediaPatch } from './schemas.js';

export type MediaServiceDeps = Pick<ApiContext<PropertyEvents>, 'db' | 'cursors' | 'now' | 'emit' | 'storage'> & {
  /** Per-file limit in bytes. */
  maxBytes: number;
};

export type MediaService = ReturnType<typeof createMediaService>;

const validateFields = compileBodyValidator<MediaFields>(MediaFieldsSchema);

const archivedMedia = () => new ApiError('conflict', { message: 'The media of an archived property cannot be changed or removed; restore it first.' });

/** Form fields are text: `position` becomes a number when it is one, else the schema refuses it. */
function parseFields(raw: Record<string, string>): MediaFields {
  const value: Record<string, unknown> = { ...raw };
  if (raw.position !== undefined && /^\d{1,9}$/.test(raw.position)) value.position = Number(raw.position);
  return assertValid(validateFields, value);
}

/** Photos, floor plans and documents of a property; `media_count` and positions are kept under the property's row lock. */
export function createMediaService({ db, cursors, now, emit, storage, maxBytes }: MediaServiceDeps) {
  const files = attachments(
    { db, storage, now, maxBytes },
    {
      parent: {
        find: (d, accountId, id) => propertyRepository.find(d, accountId, id),
        lock: (tx, accountId, id) => propertyRepository.lock(tx, accountId, id),
        refuses: (property) => (property.status === 'archived' ? new ApiError('conflict', { message: 'An archived property takes no new media; restore it first.' }) : null),
        frozen: (property) => (property.status === 'archived' ? archivedMedia() : null),
      },
      fields: parseFields,
      allowed: (fields) => ALLOWED_TYPES[fields.kind],
      async insert(tx, { accountId, parentId, parent, file, fields, at }) {
        const count = parent.media_count;
        const position = Math.min(fields.position ?? count, count);
        if (position < count) await mediaRepository.shift(tx, parentId, position, count - 1, 1);
        return tx.propertyMedia.create({
          data: {
            id: newId('med', at.getTime()),
            account_id: accountId,
            property_id: parentId,
            kind: fields.kind,
            title: fields.title ?? null,
            position,
            content_type: file.contentType,
            size: file.size,
            sha256: file.sha256,
            filename: file.filename,
            width: file.width,
            height: file.height,
            created_at: at,
            updated_at: at,
          },
        });
      },
      find: (d, accountId, propertyId, id) => mediaRepository.find(d, accountId, propertyId, id),
      async delete(tx, row) {
        await tx.propertyMedia.delete({ where: { id: row.id } });
        await mediaRepository.shift(tx, row.property_id, row.position + 1, undefined, -1); // close the gap
      },
      async counted(tx, { accountId, parentId, delta, at }) {
        await tx.property.update({ where: { id: parentId }, data: { media_count: { increment: delta }, updated_at: at } });
        await emit(tx, { accountId, type: 'property.updated', data: { property_id: parentId, changed_fields: ['media'] }, at });
      },
    },
  );

  return {
    /** Streams the upload to storage, checks it, then records it; a refused or failed upload leaves no row and no blob. */
    async upload(request: FastifyRequest, accountId: string, propertyId: string): Promise<Media> {
      return toMedia(await files.upload(request, accountId, propertyId));
    },

    async list(accountId: string, propertyId: string, { limit, cursor }: { limit: number; cursor?: string }) {
      await propertyRepository.find(db, accountId, propertyId);
      return mediaRepository.page(db, accountId, propertyId, { cursors, cursor, limit, map: toMedia });
    },

    async get(accountId: string, propertyId: string, id: string): Promise<Media> {
      return toMedia(await mediaRepository.find(db, accountId, propertyId, id));
    },

    /** The stored file's row (for the download). */
    content(accountId: string, propertyId: string, id: string) {
      return mediaRepository.find(db, accountId, propertyId, id);
    },

    /** Title and position; a move shifts the media in between so that positions stay 0, 1, 2, ... */
    update(accountId: string, propertyId: string, id: string, patch: MediaPatch): Promise<Media> {
      return inTransaction(db, async (tx) => {
        const property = await propertyRepository.lock(tx, accountId, propertyId);
        if (property.status === 'archived') throw archivedMedia();
        const row = await mediaRepository.find(tx, accountId, propertyId, id);
        const data: { title?: string | null; position?: number; updated_at?: Date } = {};
        if (patch.title !== undefined && patch.title !== row.title) data.title = patch.title;
        if (patch.position !== undefined) {
          const target = Math.min(patch.position, property.media_count - 1);
          if (target > row.position) await mediaRepository.shift(tx, propertyId, row.position + 1, target, -1);
          if (target < row.position) await mediaRepository.shift(tx, propertyId, target, row.position - 1, 1);
          if (target !== row.position) data.position = target;
        }
        if (Object.keys(data).length === 0) return toMedia(row);
        data.updated_at = now();
        return toMedia(await tx.propertyMedia.update({ where: { id }, data }));
      });
    },

    /** Removes the record (closing its gap), then its blob unless another record uses the same content. */
    remove(accountId: string, propertyId: string, id: string): Promise<void> {
      return files.remove(accountId, propertyId, id);
    },
  };
}
