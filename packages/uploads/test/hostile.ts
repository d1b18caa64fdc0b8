// A corpus of hostile and awkward files, made here rather than committed (`@platform/uploads/testing/hostile`):
// each is what a tenant could upload, with the markers that must never reach anything published.
import { deflateSync, createDeflate } from 'node:zlib';
import { PDFDocument, PDFName, PDFString, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { crc32, jpeg, pdf, png, pngChunk, webp, zip } from './fixtures.js';

export { crc32, pngChunk };

/** Texts planted in the metadata of the corpus: none may appear in a rendition, a feed or an exposé. */
export const MARKERS = {
  gps: 'GPS-52.5200N-13.4050E',
  serial: 'Scanner SN 4711-0815',
  owner: 'Erika Mustermann (owner)',
  address: 'Grundriss Hauptstrasse 5, 3. OG links',
  xmp: 'XMP-SECRET-CREATOR-TOOL',
  comment: 'COMMENT-SECRET',
  html: '<script>alert(document.cookie)</script>',
  attachment: 'ATTACHED-KAUFVERTRAG-ENTWURF',
  javascript: 'JS-SECRET-app.alert',
  zip: 'ZIPPED-SECRET-TXT',
} as const;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function ihdr(width: number, height: number, bitDepth: number, colourType: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([bitDepth, colourType, 0, 0, 0], 8);
  return pngChunk('IHDR', header);
}

/** The review's 85-byte PNG: RGBA, a valid signature and IHDR, an IDAT that is not zlib data. */
export function pngWithBrokenZlib(): Buffer {
  return Buffer.concat([
    PNG_SIGNATURE,
    ihdr(16, 16, 8, 6),
    pngChunk('IDAT', Buffer.from('this is not zlib data at all', 'latin1')),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** An all-zero RGBA PNG of the given size, its rows deflated one at a time (8000 × 8000 is 256 MB of pixels in about 250 KB). */
export async function zeroPng(width: number, height: number): Promise<Buffer> {
  const deflate = createDeflate({ level: 9 });
  const chunks: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  const row = Buffer.alloc(width * 4 + 1);
  for (let y = 0; y < height; y++)
    if (!deflate.write(row)) await new Promise((resolve) => deflate.once('drain', resolve));
  deflate.end();
  await done;
  return Buffer.concat([
    PNG_SIGNATURE,
    ihdr(width, height, 8, 6),
    pngChunk('IDAT', Buffer.concat(chunks)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A PNG whose header claims `width` × `height` (1-bit grey) over a few bytes of pixels: a decompression bomb in its smallest form. */
export function pngBombHeader(width: number, height: number): Buffer {
  return Buffer.concat([
    PNG_SIGNATURE,
    ihdr(width, height, 1, 0),
    pngChunk('IDAT', deflateSync(Buffer.alloc(64))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A JPEG whose frame header claims `width` × `height` over the scan of an 8 × 8 image. */
export function jpegBombHeader(width: number, height: number): Buffer {
  const small = jpeg(8, 8, 'bomb');
  const sof = small.indexOf(Buffer.from([0xff, 0xc0]));
  const out = Buffer.from(small);
  out.writeUInt16BE(height, sof + 5);
  out.writeUInt16BE(width, sof + 7);
  return out;
}

/** The first `fraction` of a file. */
export const truncated = (data: Buffer, fraction = 0.6) =>
  data.subarray(0, Math.max(16, Math.floor(data.length * fraction)));

/** An EXIF APP1 segment whose TIFF carries `text` where a camera puts GPS coordinates (the payload is not parsed further). */
export function exifSegment(text: string, declaredLength?: number): Buffer {
  const tiff = Buffer.concat([
    Buffer.from('MM\0*\0\0\0\x08\0\0', 'latin1'),
    Buffer.alloc(4),
    Buffer.from(text, 'latin1'),
  ]);
  const payload = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const header = Buffer.from([0xff, 0xe1, 0, 0]);
  header.writeUInt16BE(declaredLength ?? payload.length + 2, 2);
  return Buffer.concat([header, payload]);
}

/** The review's JPEG: an EXIF segment after the scan data, its length running past the end of the file. */
export function jpegWithExifAfterScan(): Buffer {
  const base = jpeg(48, 32, 'after-scan');
  return Buffer.concat([base.subarray(0, -2), exifSegment(MARKERS.gps, 0xfff0), Buffer.from([0xff, 0xd9])]);
}

/** A photo as a phone writes it: EXIF with GPS, camera serial and an orientation of 6 (turned 90°), XMP and a comment. */
export async function phonePhoto(width = 64, height = 48): Promise<Buffer> {
  const withMetadata = await sharp({ create: { width, height, channels: 3, background: { r: 200, g: 60, b: 40 } } })
    .withMetadata({ orientation: 6 })
    .withExifMerge({
      IFD0: { Make: MARKERS.serial, Copyright: MARKERS.owner, ImageDescription: MARKERS.gps },
      IFD3: { GPSLatitudeRef: 'N' },
    })
    .withXmp(
      `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:CreatorTool="${MARKERS.xmp}"/></rdf:RDF></x:xmpmeta>`,
    )
    .jpeg({ quality: 90 })
    .toBuffer();
  const comment = Buffer.concat([
    Buffer.from([0xff, 0xfe, 0, MARKERS.comment.length + 2]),
    Buffer.from(MARKERS.comment, 'latin1'),
  ]);
  return Buffer.concat([
    withMetadata.subarray(0, 2),
    comment,
    withMetadata.subarray(2),
    Buffer.from(`trailing ${MARKERS.serial}`, 'latin1'),
  ]);
}

/** A CMYK JPEG (Adobe APP14) with an embedded ICC profile. */
export function cmykJpeg(): Promise<Buffer> {
  return sharp({ create: { width: 40, height: 30, channels: 3, background: '#3366cc' } })
    .toColourspace('cmyk')
    .withIccProfile('cmyk')
    .jpeg()
    .toBuffer();
}

/** A 16-bit RGBA PNG with a text chunk. */
export async function png16(): Promise<Buffer> {
  const data = await sharp({
    create: { width: 32, height: 24, channels: 4, background: { r: 10, g: 200, b: 90, alpha: 0.5 } },
  })
    .toColourspace('rgb16')
    .png()
    .toBuffer();
  const iend = data.length - 12;
  return Buffer.concat([
    data.subarray(0, iend),
    pngChunk('tEXt', Buffer.from(`Author\0${MARKERS.owner}`, 'latin1')),
    data.subarray(iend),
  ]);
}

/** A PNG with an HTML page in a chunk of its own (a polyglot a browser might sniff as HTML). */
export function pngWithHtml(): Buffer {
  const data = png(12, 12, 'html');
  const iend = data.length - 12;
  return Buffer.concat([
    data.subarray(0, iend),
    pngChunk('htMl', Buffer.from(`<html><body>${MARKERS.html}</body></html>`, 'latin1')),
    data.subarray(iend),
    Buffer.from(MARKERS.html, 'latin1'),
  ]);
}

/** A GIF (not a type a photo may have, however many frames it has). */
export function gif(): Promise<Buffer> {
  return sharp({ create: { width: 8, height: 8, channels: 3, background: '#808080' } })
    .gif()
    .toBuffer();
}

/** An animated WebP of `frames` frames of 16 × 16 (ANIM and ANMF chunks around VP8L frames), with an EXIF chunk. */
export function manyFramesWebp(frames = 1000): Buffer {
  const chunk = (fourcc: string, data: Buffer) => {
    const size = Buffer.alloc(4);
    size.writeUInt32LE(data.length);
    return Buffer.concat([
      Buffer.from(fourcc, 'latin1'),
      size,
      data,
      data.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0),
    ]);
  };
  const frame = webp(16, 16).subarray(12); // the VP8L chunk of a 16 × 16 image
  const vp8x = Buffer.alloc(10);
  vp8x[0] = 0x02 | 0x08; // animation, EXIF
  vp8x.writeUIntLE(15, 4, 3);
  vp8x.writeUIntLE(15, 7, 3);
  const anim = Buffer.alloc(6); // background colour 0, loop forever
  const anmf = (i: number) => {
    const header = Buffer.alloc(16);
    header.writeUIntLE(15, 6, 3);
    header.writeUIntLE(15, 9, 3);
    header.writeUIntLE(10 + (i % 3), 12, 3); // duration
    return chunk('ANMF', Buffer.concat([header, frame]));
  };
  const body = Buffer.concat([
    chunk('VP8X', vp8x),
    chunk('ANIM', anim),
    ...Array.from({ length: frames }, (_, i) => anmf(i)),
    chunk('EXIF', Buffer.from(`Exif\0\0${MARKERS.gps}`, 'latin1')),
  ]);
  const size = Buffer.alloc(4);
  size.writeUInt32LE(4 + body.length);
  return Buffer.concat([Buffer.from('RIFF'), size, Buffer.from('WEBP'), body]);
}

/** A PDF followed by a ZIP archive: a PDF reader and an unzip tool both open it. */
export function pdfZipPolyglot(): Buffer {
  return Buffer.concat([pdf('polyglot'), zip('secret.txt', MARKERS.zip)]);
}

/**
 * A floor plan as an office scanner and a careless editor leave it: document information (author,
 * title with the exact address, the scanner's serial), XMP metadata, an embedded file, a JavaScript
 * action run on opening, and an annotation; its page draws a plan and a visible heading.
 */
export async function floorPlanWithSecrets(pages = 1): Promise<Buffer> {
  const document = await PDFDocument.create({ updateMetadata: false });
  const font = await document.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < pages; i++) {
    const page = document.addPage([595, 842]);
    page.drawText(`Grundriss Ebene ${i}`, { x: 60, y: 780, size: 24, font });
    page.drawRectangle({ x: 60, y: 120, width: 470, height: 600, borderWidth: 4 });
    page.drawLine({ start: { x: 60, y: 420 }, end: { x: 530, y: 420 }, thickness: 3 });
  }
  document.setAuthor(MARKERS.owner);
  document.setTitle(MARKERS.address);
  document.setCreator(MARKERS.serial);
  document.setProducer(MARKERS.serial);
  document.setKeywords([MARKERS.gps]);
  const xmp = document.context.stream(
    `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:CreatorTool="${MARKERS.xmp}"/></rdf:RDF></x:xmpmeta><?xpacket end="w"?>`,
    { Type: 'Metadata', Subtype: 'XML' },
  );
  document.catalog.set(PDFName.of('Metadata'), document.context.register(xmp));
  await document.attach(Buffer.from(MARKERS.attachment, 'latin1'), 'kaufvertrag.txt', {
    mimeType: 'text/plain',
    description: MARKERS.attachment,
  });
  document.addJavaScript('main', `app.alert("${MARKERS.javascript}");`);
  const annotation = document.context.obj({
    Type: 'Annot',
    Subtype: 'Text',
    Rect: [100, 100, 120, 120],
    Contents: PDFString.of(MARKERS.comment),
    T: PDFString.of(MARKERS.owner),
  });
  document.getPage(0).node.set(PDFName.of('Annots'), document.context.obj([document.context.register(annotation)]));
  return Buffer.from(await document.save({ useObjectStreams: false }));
}

/** An encrypted PDF's trailer (pdf-lib refuses to read one without a password). */
export function encryptedPdf(): Buffer {
  const plain = pdf('encrypted').toString('latin1');
  return Buffer.from(
    plain.replace('trailer\n<< ', 'trailer\n<< /Encrypt << /Filter /Standard /V 1 /R 2 /O (x) /U (y) /P -4 >> '),
    'latin1',
  );
}

/** Every marker found in the bytes (none is the answer for anything published). */
export function markersIn(data: Buffer): string[] {
  const text = data.toString('latin1');
  return Object.values(MARKERS).filter((marker) => text.includes(marker));
}
