import type { FastifyRequest } from 'fastify';
import { inTransaction, newId, type Db } from '@platform/db';
import { ApiError, assertValid, compileBodyValidator } from '@platform/http';
import type { ApiContext } from '@platform/service';
import { BlobVanishedError, claimBlob, receiveUpload, releaseBlob, type ReceivedFile } from '@platform/uploads';
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

/** Form fields are text: `position` becomes a number when it is one, else the schema refuses it. */
function parseFields(raw: Record<string, string>): MediaFields {
  const value: Record<string, unknown> = { ...raw };
  if (raw.position !== undefined && /^\d{1,9}$/.test(raw.position)) value.position = Number(raw.position);
  return assertValid(validateFields, value);
}

const archived = () => new ApiError('conflict', { message: 'An archived property takes no new media; restore it first.' });

/** Photos, floor plans and documents of a property; `media_count` and positions are kept under the property's row lock. */
export function createMediaService({ db, cursors, now, emit, storage, maxBytes }: MediaServiceDeps) {
  /** The property's `media_count` changes by `delta` and `property.updated` announces the change, in the caller's transaction. */
  async function countChange(tx: Db, accountId: string, propertyId: string, delta: 1 | -1, at: Date): Promise<void> {
    await tx.property.update({ where: { id: propertyId }, data: { media_count: { increment: delta }, updated_at: at } });
    await emit(tx, { accountId, type: 'property.updated', data: { property_id: propertyId, changed_fields: ['media'] }, at });
  }

  function insert(accountId: string, propertyId: string, file: ReceivedFile, fields: MediaFields): Promise<Media> {
    return inTransaction(db, async (tx) => {
      const property = await propertyRepository.lock(tx, accountId, propertyId);
      if (property.status === 'archived') throw archived();
      await claimBlob(tx, storage, file.key);
      const count = property.media_count;
      const position = Math.min(fields.position ?? count, count);
      if (position < count) await mediaRepository.shift(tx, propertyId, position, count - 1, 1);
      const at = now();
      const row = await tx.propertyMedia.create({
        data: {
          id: newId('med', at.getTime()),
          account_id: accountId,
          property_id: propertyId,
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
      await countChange(tx, accountId, propertyId, 1, at);
      return toMedia(row);
    });
  }

  return {
    /** Streams the upload to storage, checks it, then records it; a refused or failed upload leaves no row and no blob. */
    async upload(request: FastifyRequest, accountId: string, propertyId: string): Promise<Media> {
      // Answer a missing or archived property before reading the body.
      const property = await propertyRepository.find(db, accountId, propertyId);
      if (property.status === 'archived') throw archived();
      try {
        return await receiveUpload(
          request,
          { db, storage },
          { maxBytes, fields: parseFields, allowed: (fields) => ALLOWED_TYPES[fields.kind] },
          (file, fields) => insert(accountId, propertyId, file, fields),
        );
      } catch (error) {
        if (error instanceof BlobVanishedError) throw new ApiError('conflict', { message: 'The same content was being deleted at this moment; upload it again.' });
        throw error;
      }
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
    async remove(accountId: string, propertyId: string, id: string): Promise<void> {
      const removed = await inTransaction(db, async (tx) => {
        await propertyRepository.lock(tx, accountId, propertyId);
        const row = await mediaRepository.find(tx, accountId, propertyId, id);
        await tx.propertyMedia.delete({ where: { id } });
        await mediaRepository.shift(tx, propertyId, row.position + 1, undefined, -1);
        await countChange(tx, accountId, propertyId, -1, now());
        return row;
      });
      await inTransaction(db, (tx) => releaseBlob(tx, storage, removed.sha256));
    },
  };
}
