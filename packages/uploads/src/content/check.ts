import { createReadStream, createWriteStream } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { ApiError, validationError } from '@platform/http';
import { SandboxError, withWorkspace, type Sandbox } from '@platform/sandbox';
import type { BlobStorage, StoredBlob } from '@platform/storage';
import { isImageType, type ContentType } from '../content-types.js';
import {
  DECODE_IMAGE,
  INSPECT_PDF,
  RENDER_PDF,
  type PdfLimits,
  type RenditionFile,
  type RenditionSpec,
} from './tasks.js';

/** What a resource accepts of a file's content, beyond its type and size. */
export interface ContentRules {
  /** Pixels an image may have (width × height), checked before it is decoded. */
  maxPixels: number;
  pdf: PdfLimits;
  /**
   * The renditions to make of a file that will be published (a photo, a floor plan: images and the
   * first page of a PDF); empty: the file is only checked (an image is then decoded to a small one
   * that is thrown away).
   */
  renditions: readonly RenditionSpec[];
  /** Pages a PDF may have when renditions are made of it. */
  maxRenderedPages: number;
  /** How long decoding may take, in milliseconds. */
  timeoutMs: number;
}

/** A rendition as stored: a JPEG blob with its size in pixels. */
export interface StoredRendition extends StoredBlob {
  variant: string;
  contentType: 'image/jpeg';
  width: number;
  height: number;
}

export interface CheckedContent {
  /** Pixels of an image as displayed; null for other types. */
  width: number | null;
  height: number | null;
  renditions: StoredRendition[];
}

export interface ContentDeps {
  sandbox: Sandbox;
  storage: BlobStorage;
}

/** pdf.js's font data, where pdfjs-dist is installed (the sandbox's bundle does not know where it is). */
let fontsDir: string | undefined;
const pdfFonts = () =>
  (fontsDir ??=
    join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts') + '/');

/** When only a check is asked: decoding still goes through every pixel, into something small. */
const CHECK_ONLY: readonly RenditionSpec[] = [{ variant: 'check', longEdge: 64, quality: 50 }];

const FORMATS: Partial<Record<ContentType, 'jpeg' | 'png' | 'webp'>> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
};

/**
 * Decodes a stored upload in the sandbox, within the rules: an image in full (pixel limit first),
 * a PDF parsed (pages and objects) and, when it is to be published, its first page drawn; then the
 * renditions are stored. A file that cannot be decoded, is beyond a limit, or makes its decoder
 * crash, run out of memory or time is refused with 422 (`file`: `invalid_format` or
 * `out_of_range`) and a message that says which; a sandbox with too many waiting is 503.
 * Other types pass unchanged. Renditions stored before a failure are removed again.
 */
export async function checkContent(
  { sandbox, storage }: ContentDeps,
  blob: StoredBlob,
  contentType: ContentType,
  rules: ContentRules,
  group?: string,
): Promise<CheckedContent> {
  const image = isImageType(contentType);
  if (!image && contentType !== 'application/pdf') return { width: null, height: null, renditions: [] };
  return withWorkspace(async (dir) => {
    const path = storage.localPath?.(blob.key) ?? (await download(storage, blob.key, join(dir, 'original')));
    const timeout = { timeoutMs: rules.timeoutMs, ...(group === undefined ? {} : { group }) };
    let width: number | null = null;
    let height: number | null = null;
    let files: RenditionFile[] = [];
    try {
      if (image) {
        const renditions = rules.renditions.length > 0 ? rules.renditions : CHECK_ONLY;
        const decoded = await sandbox.run(
          DECODE_IMAGE,
          { path, format: FORMATS[contentType]!, maxPixels: rules.maxPixels, renditions, outDir: dir },
          timeout,
        );
        ({ width, height } = decoded);
        files = rules.renditions.length > 0 ? decoded.renditions : [];
      } else if (rules.renditions.length > 0) {
        const input = {
          path,
          ...rules.pdf,
          maxRenderedPages: rules.maxRenderedPages,
          fontsDir: pdfFonts(),
          renditions: rules.renditions,
          outDir: dir,
        };
        files = (await sandbox.run(RENDER_PDF, input, timeout)).renditions;
      } else {
        await sandbox.run(INSPECT_PDF, { path, ...rules.pdf }, timeout);
      }
    } catch (error) {
      throw error instanceof SandboxError ? refusal(error, image ? 'image' : 'PDF') : error;
    }
    const stored: StoredRendition[] = [];
    try {
      for (const file of files) {
        const put = await storage.put(createReadStream(join(dir, file.file)));
        stored.push({
          ...put,
          variant: file.variant,
          contentType: 'image/jpeg',
          width: file.width,
          height: file.height,
        });
      }
    } catch (error) {
      await Promise.allSettled(stored.map((rendition) => storage.delete(rendition.key)));
      throw error;
    }
    return { width, height, renditions: stored };
  });
}

async function download(storage: BlobStorage, key: string, path: string): Promise<string> {
  const content = await storage.get(key);
  if (!content) throw new Error(`The upload's blob ${key} is gone.`);
  await pipeline(content.stream, createWriteStream(path, { mode: 0o600 }));
  return path;
}

/** The client's answer to a failed decoding. */
function refusal(error: SandboxError, what: 'image' | 'PDF'): ApiError {
  const file = (reason: 'invalid_format' | 'out_of_range', message: string) =>
    validationError([{ field: 'file', reason }], message);
  switch (error.kind) {
    case 'refused':
      return file(error.code === 'limit' ? 'out_of_range' : 'invalid_format', error.message);
    case 'memory':
      return file(
        'out_of_range',
        `The ${what} cannot be decoded within the memory limit: its decoder ${error.message}.`,
      );
    case 'timeout':
      return file('out_of_range', `The ${what} cannot be decoded within the time limit: its decoder ${error.message}.`);
    case 'failed':
    case 'crashed':
      return file(
        'invalid_format',
        `The ${what} cannot be decoded: its decoder ${error.kind === 'crashed' ? error.message : `failed: ${error.message}`}.`,
      );
    case 'busy':
    case 'unavailable':
    case 'closed':
      return new ApiError('service_unavailable', {
        message: 'Too many files are being decoded at the moment; try again shortly.',
        headers: { 'retry-after': '5' },
      });
  }
}
