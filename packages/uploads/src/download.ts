import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BlobStorage } from '@platform/storage';
import { CONTENT_TYPES, type ContentType } from './content-types.js';

export interface Download {
  sha256: string;
  contentType: string;
  filename: string;
  /** `inline` (shown by a browser: images, PDFs) or `attachment` (saved). */
  disposition: 'inline' | 'attachment';
}

/** Whether an `If-None-Match` header names this ETag (or `*`); weak comparison, as RFC 9110 asks for it. */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header.split(',').some((tag) => {
    const value = tag.trim();
    return value === '*' || value.replace(/^W\//, '') === etag;
  });
}

/** `Content-Disposition` with an ASCII fallback name and the exact one in RFC 8187 form. */
export function contentDisposition(filename: string, disposition: Download['disposition']): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/**
 * Streams a stored file: `Content-Type`, `Content-Length`, `ETag` (the quoted sha256) and
 * `Content-Disposition`; `If-None-Match` with the ETag answers 304 without touching storage.
 */
export async function sendDownload(
  request: FastifyRequest,
  reply: FastifyReply,
  storage: BlobStorage,
  file: Download,
): Promise<FastifyReply> {
  const etag = `"${file.sha256}"`;
  reply.header('etag', etag);
  if (etagMatches(request.headers['if-none-match'], etag)) return reply.status(304).send();
  const content = await storage.get(file.sha256);
  if (!content)
    throw new Error(`The blob ${file.sha256} of a record is missing from storage (run \`pnpm cli storage check\`).`);
  const text = file.contentType in CONTENT_TYPES && !CONTENT_TYPES[file.contentType as ContentType].signature;
  reply
    .header('content-length', content.size)
    .header('content-disposition', contentDisposition(file.filename, file.disposition))
    .type(text ? `${file.contentType}; charset=utf-8` : file.contentType);
  return reply.send(content.stream);
}
