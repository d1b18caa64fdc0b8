import PDFDocument from 'pdfkit';
import { pdfAProfile } from './pdfa.js';

/**
 * A deterministic PDF builder over pdfkit: the same input gives the same bytes. pdfkit's only
 * varying inputs are the metadata dates (the file id is a hash of the metadata), so both are
 * fixed to `createdAt`. Built-in fonts only (WinAnsi: ä ö ü ß € ² · render; no embedding), unless
 * the document is PDF/A (`RenderOptions.pdfA`, ./pdfa.ts).
 */
export type PdfDocument = PDFKit.PDFDocument;

export interface PdfMetadata {
  title: string;
  subject?: string;
  author?: string;
  /** BCP 47 language of the text (`de-DE`), for screen readers. */
  language?: string;
  /** The document's CreationDate and ModDate: take it from the data rendered, never the clock. */
  createdAt: Date;
}

export const FONTS = { regular: 'Helvetica', bold: 'Helvetica-Bold', mono: 'Courier' } as const;
const MARGIN = 50;
const BODY_SIZE = 10;
export const MUTED = '#555555';
const RULE = '#dddddd';

export interface RenderOptions {
  /**
   * PDF/A-3b (./pdfa.ts): PDF 1.7, every font embedded (the `FONTS` names drawn with Liberation
   * Sans and Mono, metric-compatible), an sRGB output intent, XMP metadata; `attachFacturX` then
   * embeds an invoice's XML. Off: the document is as it always was.
   */
  pdfA?: boolean;
}

/** Renders an A4 document and collects it into one Buffer. */
export async function renderPdf(
  meta: PdfMetadata,
  draw: (doc: PdfDocument) => void | Promise<void>,
  options: RenderOptions = {},
): Promise<Buffer> {
  if (Number.isNaN(meta.createdAt.getTime())) throw new Error('renderPdf: createdAt is not a valid date');
  const pdfA = options.pdfA ? await pdfAProfile() : undefined;
  const info: PDFKit.DocumentInfo = {
    Title: meta.title,
    Creator: 'PDFKit',
    Producer: 'PDFKit',
    CreationDate: meta.createdAt,
    ModDate: meta.createdAt,
  };
  // Only defined keys: pdfkit hashes every info value into the file id.
  if (meta.subject !== undefined) info.Subject = meta.subject;
  if (meta.author !== undefined) info.Author = meta.author;
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    info,
    displayTitle: true,
    ...(meta.language ? { lang: meta.language } : {}),
    ...pdfA?.documentOptions,
  });
  pdfA?.prepare(doc, meta);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.font(FONTS.regular).fontSize(BODY_SIZE).fillColor('black');
  try {
    await draw(doc);
  } finally {
    doc.end();
  }
  return done;
}

export function contentWidth(doc: PdfDocument): number {
  return doc.page.width - doc.page.margins.left - doc.page.margins.right;
}

/** Starts a new page unless `height` points still fit above the bottom margin. */
export function ensureSpace(doc: PdfDocument, height: number): void {
  if (doc.y + height > doc.page.height - doc.page.margins.bottom) doc.addPage();
}

/** A heading; `keepWith` points of what follows are kept on its page too (a heading never ends a page alone). */
export function heading(doc: PdfDocument, text: string, options: { level?: 1 | 2; keepWith?: number } = {}): void {
  const level = options.level ?? 2;
  const size = level === 1 ? 20 : 13;
  if (level === 2) doc.moveDown(0.8);
  ensureSpace(doc, size * 2 + (options.keepWith ?? 3 * BODY_SIZE));
  doc.font(FONTS.bold).fontSize(size).fillColor('black');
  doc.text(text, doc.page.margins.left, doc.y, { width: contentWidth(doc) });
  doc.moveDown(level === 1 ? 0.2 : 0.3);
  doc.font(FONTS.regular).fontSize(BODY_SIZE);
}

export function paragraph(doc: PdfDocument, text: string, options: { size?: number; color?: string } = {}): void {
  doc
    .font(FONTS.regular)
    .fontSize(options.size ?? BODY_SIZE)
    .fillColor(options.color ?? 'black');
  doc.text(text, doc.page.margins.left, doc.y, { width: contentWidth(doc) }); // pdfkit breaks pages inside text
  doc.fontSize(BODY_SIZE).fillColor('black');
}

export interface TableCell {
  text: string;
  /** Width in points; the cells of a row are laid out left to right from the left margin. */
  width: number;
  font?: string;
  size?: number;
  color?: string;
}

/** One table row: every cell wrapped in its width, the row kept on one page, a rule beneath unless `rule: false`. */
export function tableRow(doc: PdfDocument, cells: TableCell[], options: { gap?: number; rule?: boolean } = {}): void {
  const gap = options.gap ?? 8;
  const padding = 3;
  const measure = (cell: TableCell) => {
    doc.font(cell.font ?? FONTS.regular).fontSize(cell.size ?? BODY_SIZE);
    return doc.heightOfString(cell.text, { width: cell.width - gap });
  };
  const height = Math.max(...cells.map(measure)) + 2 * padding;
  ensureSpace(doc, height);
  const top = doc.y;
  let x = doc.page.margins.left;
  for (const cell of cells) {
    doc
      .font(cell.font ?? FONTS.regular)
      .fontSize(cell.size ?? BODY_SIZE)
      .fillColor(cell.color ?? 'black');
    doc.text(cell.text, x, top + padding, { width: cell.width - gap });
    x += cell.width;
  }
  const bottom = top + height;
  if (options.rule !== false)
    doc.moveTo(doc.page.margins.left, bottom).lineTo(x, bottom).lineWidth(0.5).strokeColor(RULE).stroke();
  doc.font(FONTS.regular).fontSize(BODY_SIZE).fillColor('black');
  doc.x = doc.page.margins.left;
  doc.y = bottom;
}

/** A two-column label/value table; rows whose value is null, undefined or empty are left out. */
export function factsTable(
  doc: PdfDocument,
  rows: ReadonlyArray<readonly [label: string, value: string | null | undefined]>,
): void {
  const width = contentWidth(doc);
  const labelWidth = Math.round(width * 0.4);
  for (const [label, value] of rows) {
    if (value === null || value === undefined || value === '') continue;
    tableRow(doc, [
      { text: label, width: labelWidth, color: MUTED },
      { text: value, width: width - labelWidth },
    ]);
  }
}

export type ImageFormat = 'jpeg' | 'png';

/** The formats pdfkit can embed, told from the first bytes; anything else (WebP, GIF, …) is null. */
export function imageFormat(data: Buffer): ImageFormat | null {
  if (data.length > 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'jpeg';
  if (data.length > 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'png';
  return null;
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Draws a JPEG or PNG scaled to fit the box (aspect kept, centred). Returns false, drawing
 * nothing, for data pdfkit cannot embed (another format, or a damaged file).
 */
export function fitImage(doc: PdfDocument, data: Buffer, box: Box): boolean {
  if (!imageFormat(data)) return false;
  try {
    // pdfkit parses the image before writing anything, so a refused one leaves no trace.
    doc.image(data, box.x, box.y, { fit: [box.width, box.height], align: 'center', valign: 'center' });
    return true;
  } catch {
    return false;
  }
}

/** An image read when it is drawn (one at a time); null when it is not there. */
export type ImageSource = () => Promise<Buffer | null>;

/**
 * Lays images out in rows of `columns` cells of `height` points, from doc.y, breaking pages
 * between rows. Each image is read just before it is drawn, so one at a time is held; one that is
 * missing or pdfkit cannot embed is left out without leaving its cell empty. Returns how many were drawn.
 */
export async function imageGrid(
  doc: PdfDocument,
  images: readonly ImageSource[],
  options: { columns: number; height: number; gap?: number },
): Promise<number> {
  const gap = options.gap ?? 10;
  const width = contentWidth(doc);
  const cellWidth = (width - gap * (options.columns - 1)) / options.columns;
  let drawn = 0;
  let column = 0;
  let top = doc.y;
  for (const source of images) {
    const data = await source();
    if (!data || !imageFormat(data)) continue;
    if (column === 0) {
      ensureSpace(doc, options.height);
      top = doc.y;
    }
    const x = doc.page.margins.left + column * (cellWidth + gap);
    if (!fitImage(doc, data, { x, y: top, width: cellWidth, height: options.height })) continue;
    drawn += 1;
    column = (column + 1) % options.columns;
    if (column === 0) endRow(doc, top + options.height + gap);
  }
  if (column !== 0) endRow(doc, top + options.height + gap);
  return drawn;
}

function endRow(doc: PdfDocument, y: number): void {
  doc.x = doc.page.margins.left;
  doc.y = y;
}
