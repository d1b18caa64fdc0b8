import type { FastifyRequest } from 'fastify';
import { inTransaction, type Db } from '@platform/db';
import { ApiError } from '@platform/http';
import type { Sandbox } from '@platform/sandbox';
import type { BlobStorage } from '@platform/storage';
import { BlobVanishedError, claimBlob, releaseBlob } from './blob-references-sql.js';
import { receiveUpload, type ReceivedFile, type UploadSpec } from './receive.js';

/** The record files are attached to (a property, an agent), as the attachments need it. */
export interface AttachmentParent<P> {
  /** The account's parent, or its 404. */
  find(db: Db, accountId: string, id: string): Promise<P>;
  /** The same, locked until the transaction ends: counts and positions change under this lock. */
  lock(tx: Db, accountId: string, id: string): Promise<P>;
  /** The 409 of a parent that takes no new files in its state (archived, retired), else null. */
  refuses(parent: P): ApiError | null;
  /** The 409 of a parent whose files cannot be changed or removed in its state, else null (default: never). */
  frozen?(parent: P): ApiError | null;
}

/** What one kind of attachment is; its two uses (media, artifacts) differ only here. */
export interface AttachmentsDefinition<P, Row extends { sha256: string }, F> extends Omit<UploadSpec<F>, 'maxBytes'> {
  parent: AttachmentParent<P>;
  /** Writes the record, in the transaction that holds the parent's lock and the blob's claim. */
  insert(
    tx: Db,
    c: { accountId: string; parentId: string; parent: P; file: ReceivedFile; fields: F; at: Date },
  ): Promise<Row>;
  /** The account's record of this parent, or its 404. */
  find(db: Db, accountId: string, parentId: string, id: string): Promise<Row>;
  /** Deletes the record (and closes gaps it leaves), in the transaction that holds the parent's lock; returns the keys of further blobs it referenced (renditions). */
  delete(tx: Db, row: Row): Promise<string[]>;
  /** The parent's count changes by `delta` and the change is announced, in the same transaction. */
  counted(tx: Db, c: { accountId: string; parentId: string; delta: 1 | -1; at: Date }): Promise<void>;
}

export interface AttachmentsDeps {
  db: Db;
  storage: BlobStorage;
  /** Where images and PDFs are decoded. */
  sandbox: Sandbox;
  now: () => Date;
  /** Per-file limit in bytes. */
  maxBytes: number;
}

/**
 * The lifecycle of files attached to a record, once for both services: an upload is streamed to
 * storage and checked, then recorded under the parent's row lock with the count and the event; a
 * removal deletes the record the same way and then its blob, unless another record uses it.
 */
export function attachments<P, Row extends { sha256: string }, F>(
  { db, storage, sandbox, now, maxBytes }: AttachmentsDeps,
  definition: AttachmentsDefinition<P, Row, F>,
) {
  const { parent } = definition;
  const refuse = (p: P) => {
    const refusal = parent.refuses(p);
    if (refusal) throw refusal;
  };
  return {
    /** Streams the upload to storage, checks it, then records it; a refused or failed upload leaves no row and no blob. */
    async upload(request: FastifyRequest, accountId: string, parentId: string): Promise<Row> {
      refuse(await parent.find(db, accountId, parentId)); // answered before the body is read
      try {
        const spec = {
          maxBytes,
          fields: definition.fields,
          allowed: definition.allowed,
          content: definition.content,
          group: accountId,
        };
        return await receiveUpload(request, { db, storage, sandbox }, spec, (file, fields) =>
          inTransaction(db, async (tx) => {
            const locked = await parent.lock(tx, accountId, parentId);
            refuse(locked);
            for (const key of [file.key, ...file.renditions.map((r) => r.key)]) await claimBlob(tx, storage, key);
            const at = now();
            const row = await definition.insert(tx, { accountId, parentId, parent: locked, file, fields, at });
            await definition.counted(tx, { accountId, parentId, delta: 1, at });
            return row;
          }),
        );
      } catch (error) {
        if (error instanceof BlobVanishedError)
          throw new ApiError('conflict', {
            message: 'The same content was being deleted at this moment; upload it again.',
          });
        throw error;
      }
    },

    /** Removes the record, then its blob unless another record uses the same content. */
    async remove(accountId: string, parentId: string, id: string): Promise<void> {
      const removed = await inTransaction(db, async (tx) => {
        const locked = await parent.lock(tx, accountId, parentId);
        const frozen = parent.frozen?.(locked);
        if (frozen) throw frozen;
        const row = await definition.find(tx, accountId, parentId, id);
        const further = await definition.delete(tx, row);
        await definition.counted(tx, { accountId, parentId, delta: -1, at: now() });
        return [row.sha256, ...further];
      });
      for (const key of removed) await inTransaction(db, (tx) => releaseBlob(tx, storage, key));
    },
  };
}
