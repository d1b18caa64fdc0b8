import { readFile } from 'node:fs/promises';
import { TaskRefusal } from '@platform/sandbox';
import { writeRenditions } from './renditions.js';
import type { InspectedPdf, InspectPdfInput, RenderedPdf, RenderPdfInput } from './tasks.js';

/** Pixels of the long edge a page is rendered at, before the renditions are made from it. */
const RENDER_LONG_EDGE = 2400;

/**
 * In the sandbox: parses the PDF with pdf-lib and counts its pages and objects; an encrypted PDF, one
 * that cannot be parsed, one without pages or beyond a limit is refused.
 */
export async function inspectPdf({ path, maxPages, maxObjects }: InspectPdfInput): Promise<InspectedPdf> {
  const { PDFDocument, EncryptedPDFError } = await import('pdf-lib');
  let document;
  try {
    document = await PDFDocument.load(await readFile(path), { updateMetadata: false });
  } catch (error) {
    if (error instanceof EncryptedPDFError)
      throw new TaskRefusal('The PDF is encrypted; upload it without a password.');
    throw new TaskRefusal(`The PDF cannot be read: ${(error as Error).message}.`);
  }
  const objects = document.context.enumerateIndirectObjects().length;
  if (objects > maxObjects)
    throw new TaskRefusal(`The PDF has ${objects} objects; at most ${maxObjects} are accepted.`, 'limit');
  let pages: number;
  try {
    pages = document.getPageCount();
  } catch (error) {
    throw new TaskRefusal(`The PDF's pages cannot be read: ${(error as Error).message}.`);
  }
  if (pages === 0) throw new TaskRefusal('The PDF has no pages.');
  if (pages > maxPages) throw new TaskRefusal(`The PDF has ${pages} pages; at most ${maxPages} are accepted.`, 'limit');
  return { pages, objects };
}

/**
 * In the sandbox: inspects the PDF, then draws its first page with pdf.js (no scripts, no
 * annotations or form fields, fonts from pdf.js's own data) on a white canvas and makes the image
 * renditions from those pixels: what is published of the PDF is what its page shows, nothing of
 * its document information, XMP, attachments, scripts, hidden layers or earlier revisions.
 */
export async function renderPdf(input: RenderPdfInput): Promise<RenderedPdf> {
  const inspected = await inspectPdf(input);
  if (inspected.pages > input.maxRenderedPages) {
    throw new TaskRefusal(
      `The PDF has ${inspected.pages} pages; a published PDF may have ${input.maxRenderedPages} (upload each page on its own).`,
      'limit',
    );
  }
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const { createCanvas } = await import('@napi-rs/canvas');
  const { default: sharp } = await import('sharp');
  const document = await pdfjs
    .getDocument({
      data: new Uint8Array(await readFile(input.path)),
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      enableXfa: false,
      standardFontDataUrl: input.fontsDir,
      verbosity: 0,
    })
    .promise.catch((error: Error) => {
      throw new TaskRefusal(`The PDF cannot be rendered: ${error.message}.`);
    });
  try {
    const page = await document.getPage(1);
    const base = page.getViewport({ scale: 1 });
    const longest = Math.max(base.width, base.height);
    if (!Number.isFinite(longest) || longest <= 0) throw new TaskRefusal("The PDF's first page has no size.");
    const viewport = page.getViewport({ scale: RENDER_LONG_EDGE / longest });
    const width = Math.max(1, Math.round(viewport.width));
    const height = Math.max(1, Math.round(viewport.height));
    const canvas = createCanvas(width, height);
    const context = canvas.getContext('2d');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, width, height);
    await page.render({
      canvas: canvas as never,
      canvasContext: context as never,
      viewport,
      annotationMode: pdfjs.AnnotationMode.DISABLE,
    }).promise;
    const pixels = context.getImageData(0, 0, width, height).data;
    const source = sharp(Buffer.from(pixels.buffer, pixels.byteOffset, pixels.byteLength), {
      raw: { width, height, channels: 4 },
    });
    return { ...inspected, renditions: await writeRenditions(source, input.renditions, input.outDir) };
  } catch (error) {
    if (error instanceof TaskRefusal) throw error;
    throw new TaskRefusal(`The PDF's first page cannot be rendered: ${(error as Error).message}.`);
  } finally {
    await document.destroy();
  }
}
