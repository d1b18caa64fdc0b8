import { pipeline } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import { inTransaction, type Db } from '@platform/db';
import { ApiError, validationError, type ErrorDetail } from '@platform/http';
import type { Sandbox } from '@platform/sandbox';
import { BlobTooLargeError, type BlobStorage, type StoredBlob } from '@platform/storage';
import { releaseBlob } from './blob-references-sql.js';
import { checkContent, type ContentRules, type StoredRendition } from './content/check.js';
import { judgeType, type ContentType } from './content-types.js';
import { ContentInspector } from './inspect.js';

/** What one resource accepts. */
export interface UploadSpec<F> {
  /** Per-file limit in bytes; more is 413 `payload_too_large`. */
  maxBytes: number;
  /** Validates the text fields once all parts are read (throws `validation_failed`). */
  fields: (raw: Record<string, string>) => F;
  /** The allowed types, which may depend on the fields (a photo is an image, a document a PDF). */
  allowed: (fields: F) => readonly ContentType[];
  /** Limits of the content and the renditions to make (images and PDFs are decoded in the sandbox). */
  content: (fields: F) => ContentRules;
  /** Whose upload it is (the account): the sandbox takes only so many of one account at once. */
  group?: string;
}

/** A stored file with what its record keeps. */
export interface ReceivedFile extends StoredBlob {
  contentType: ContentType;
  /** The client's file name (only for `Content-Disposition`), without any path. */
  filename: string;
  /** Pixels of an image as displayed (decoded in full); null for other types. */
  width: number | null;
  height: number | null;
  /** Stored renditions (published forms) of an image or PDF, when the rules ask for them. */
  renditions: StoredRendition[];
}

export interface UploadDeps {
  db: Db;
  storage: BlobStorage;
  /** Where images and PDFs are decoded. */
  sandbox: Sandbox;
}

/** The form field that carries the file. */
export const FILE_FIELD = 'file';

const PART_LIMITS = { fields: 20, fieldSize: 10_000, files: 5, parts: 30 };

/**
 * The upload lifecycle: reads the `multipart/form-data` body part by part, streams the file to
 * storage (hashing, counting and keeping only its head for sniffing), checks the limit, the fields
 * and the type, then `save`s the record. On any failure (too large, refused type or fields, a
 * failing `save`, an aborted request) the stored blob is released again unless another record
 * uses the same content, so a failed upload leaves neither a row nor a blob.
 */
export async function receiveUpload<F, R>(
  request: FastifyRequest,
  { db, storage, sandbox }: UploadDeps,
  spec: UploadSpec<F>,
  save: (file: ReceivedFile, fields: F) => Promise<R>,
): Promise<R> {
  if (!request.isMultipart()) {
    throw new ApiError('unsupported_media_type', {
      message: 'Send the upload as multipart/form-data with the file in a part named `file`.',
    });
  }
  const raw: Record<string, string> = {};
  const problems: ErrorDetail[] = [];
  let stored: { blob: StoredBlob; inspector: ContentInspector; declared: string; filename: string } | undefined;
  let tooLarge = false;
  let renditions: StoredRendition[] = [];
  try {
    for await (const part of request.parts({ limits: { ...PART_LIMITS, fileSize: spec.maxBytes } })) {
      if (part.type === 'field') {
        if (typeof part.value === 'string' && !part.valueTruncated) raw[part.fieldname] = part.value;
        else
          problems.push({
            field: part.fieldname,
            reason: 'too_long',
            constraint: { max_length: PART_LIMITS.fieldSize },
          });
        continue;
      }
      if (part.fieldname !== FILE_FIELD || stored || tooLarge) {
        part.file.resume(); // drain a refused part, or the request never ends
        problems.push({
          field: part.fieldname,
          reason: part.fieldname === FILE_FIELD ? 'not_allowed' : 'unknown_field',
        });
        continue;
      }
      const inspector = new ContentInspector();
      let blob: StoredBlob;
      try {
        blob = await storage.put(
          pipeline(part.file, inspector, () => {}),
          { maxBytes: spec.maxBytes },
        );
      } catch (error) {
        if (!(error instanceof BlobTooLargeError)) throw error;
        tooLarge = true;
        continue;
      }
      stored = { blob, inspector, declared: part.mimetype, filename: part.filename };
      // With streaming, an over-limit file arrives truncated at the limit: never keep it.
      if (part.file.truncated) {
        tooLarge = true;
        await release(db, storage, stored.blob.key);
        stored = undefined;
      }
    }
    if (tooLarge)
      throw new ApiError('payload_too_large', {
        message: `The file is larger than the limit of ${spec.maxBytes} bytes.`,
        messageDe: `Die Datei ist größer als die Grenze von ${spec.maxBytes} Bytes.`,
        details: [{ field: FILE_FIELD, reason: 'too_long', constraint: { max_bytes: spec.maxBytes } }],
      });
    if (!stored) problems.push({ field: FILE_FIELD, reason: 'missing' });
    if (problems.length > 0) throw validationError(problems);
    const fields = spec.fields(raw);
    const contentType = await judge(stored!, spec.allowed(fields));
    const content = await checkContent(
      { sandbox, storage },
      stored!.blob,
      contentType,
      spec.content(fields),
      spec.group,
    );
    renditions = content.renditions;
    return await save({ ...stored!.blob, contentType, filename: safeFilename(stored!.filename), ...content }, fields);
  } catch (error) {
    for (const key of [...(stored ? [stored.blob.key] : []), ...renditions.map((r) => r.key)]) {
      await release(db, storage, key).catch((cleanup: unknown) =>
        request.log.error({ error: String(cleanup) }, 'upload cleanup failed'),
      );
    }
    // A client that went away mid-body is no fault of ours: no 500, no "unexpected error" in the log.
    if (request.raw.readableAborted)
      throw new ApiError('invalid_json', { message: 'The upload was cut off before the end of its body.' });
    throw isMalformedMultipart(error)
      ? new ApiError('invalid_json', { message: 'The multipart/form-data body is malformed.' })
      : error;
  }
}

/** The parser's errors for a body that is not well-formed multipart (a 400, like malformed JSON). */
function isMalformedMultipart(error: unknown): boolean {
  return (
    error instanceof Error &&
    !(error instanceof ApiError) &&
    /^(Multipart: |Unexpected end of (multipart data|form)|Boundary required|Malformed part header)/.test(error.message)
  );
}

/** The content's type from its bytes and its declaration, or 422 when it is not allowed. */
async function judge(
  { inspector, declared }: { inspector: ContentInspector; declared: string },
  allowed: readonly ContentType[],
): Promise<ContentType> {
  const sniffed = (await fileTypeFromBuffer(inspector.head()))?.mime;
  const contentType = judgeType({ declared, sniffed, utf8: inspector.utf8 }, allowed);
  if (contentType === null) {
    throw validationError(
      [{ field: FILE_FIELD, reason: 'not_allowed', constraint: { allowed } }],
      `The file's content is not of an allowed type (${allowed.join(', ')}) or does not agree with its declared type.`,
    );
  }
  return contentType;
}

function release(db: Db, storage: BlobStorage, key: string): Promise<boolean> {
  return inTransaction(db, (tx) => releaseBlob(tx, storage, key));
}

/** The last path segment, without control characters, at most 200 characters; `file` when empty. */
export function safeFilename(name: string | undefined): string {
  const base = (name ?? '')
    .split(/[\\/]/)
    .pop()!
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(0, 200);
  return base === '' ? 'file' : base;
}
