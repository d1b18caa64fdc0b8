import { task } from '@platform/sandbox';

/** One published size of an image: its long edge at most `longEdge` pixels, JPEG at `quality`. */
export interface RenditionSpec {
  /** `large`, `thumbnail`, ...: how the records name it. */
  variant: string;
  longEdge: number;
  quality: number;
}

/** A rendition the task wrote into its workspace. */
export interface RenditionFile {
  variant: string;
  /** File name inside the workspace. */
  file: string;
  width: number;
  height: number;
}

export interface DecodeImageInput {
  path: string;
  /** The format the bytes were judged to be; a decoder that reads another is a refusal. */
  format: 'jpeg' | 'png' | 'webp';
  maxPixels: number;
  renditions: readonly RenditionSpec[];
  /** Where the renditions are written (the workspace). */
  outDir: string;
}

export interface DecodedImage {
  /** As displayed: after the EXIF orientation. */
  width: number;
  height: number;
  renditions: RenditionFile[];
}

export interface PdfLimits {
  maxPages: number;
  maxObjects: number;
}

export interface InspectPdfInput extends PdfLimits {
  path: string;
}

export interface InspectedPdf {
  pages: number;
  objects: number;
}

export interface RenderPdfInput extends InspectPdfInput {
  /** Pages a rendered PDF may have (a floor plan: 1). */
  maxRenderedPages: number;
  /** pdf.js's font data (`standard_fonts/` of pdfjs-dist, with a trailing slash), found by the caller where pdfjs-dist is installed. */
  fontsDir: string;
  renditions: readonly RenditionSpec[];
  outDir: string;
}

export interface RenderedPdf extends InspectedPdf {
  renditions: RenditionFile[];
}

/** Decodes an image in full within a pixel limit and writes its renditions from the pixels. */
export const DECODE_IMAGE = task<DecodeImageInput, DecodedImage>('uploads.decode-image');
/** Parses a PDF within limits (pages, objects); refuses one that cannot be read. */
export const INSPECT_PDF = task<InspectPdfInput, InspectedPdf>('uploads.inspect-pdf');
/** Inspects a PDF, then renders its first page into image renditions. */
export const RENDER_PDF = task<RenderPdfInput, RenderedPdf>('uploads.render-pdf');
