/**
 * Removes the metadata of a published photo (EXIF with GPS position and camera serial numbers, XMP,
 * IPTC, comments, text chunks) without decoding pixels: the container is walked and only the
 * structures that carry image data, colour or layout are copied. The result is deterministic and
 * idempotent: stripping a stripped image gives the same bytes.
 *
 * - `image/jpeg`: segments are walked from SOI to EOI. Kept: APP0 (JFIF; except a JFXX extension,
 *   which only holds a thumbnail of the unedited original), APP2 `ICC_PROFILE`, APP14 (Adobe: the
 *   colour transform) and every non-APP segment (tables, frame, scans). Dropped: the other APPn
 *   (EXIF, XMP, IPTC/Photoshop, MPF, maker data...) and COM, also between the scans of a progressive
 *   JPEG. Entropy-coded data is copied verbatim. Anything after EOI is dropped: phones append
 *   further images (MPF: depth maps, gain maps, each with its own EXIF) or videos there. When the
 *   first EXIF APP1 has an IFD0 Orientation (0x0112) other than 1, a minimal APP1 with only that tag
 *   (big-endian TIFF, one IFD0 entry, no next IFD) is written after SOI and the leading APP0, so
 *   viewers and pdfkit still rotate the photo. Fill bytes and stray bytes between header segments
 *   are dropped (decoders skip them too); a file that ends inside its scan data keeps what it has.
 * - `image/png`: every chunk is copied whole (CRC unchanged) except tEXt, zTXt, iTXt, eXIf, tIME;
 *   anything after IEND is dropped.
 * - `image/webp`: EXIF and `XMP ` chunks are dropped, the EXIF and XMP flags of VP8X cleared, the
 *   RIFF size recomputed; odd-sized chunks get their padding byte (always 0). Anything after the
 *   RIFF size is dropped.
 * - Any other type (PDF...): the data is returned unchanged.
 *
 * A JPEG, PNG or WebP whose structure cannot be walked (no signature, a segment or chunk running
 * past the end, a JPEG header without a scan) throws an {@link ImageMetadataError}: such a file
 * cannot be rendered anyway, and publishing it unchanged could publish its metadata. Unreadable
 * EXIF only loses the orientation: it never throws.
 */

export class ImageMetadataError extends Error {
  override name = 'ImageMetadataError';
}

/** Returns `data` without its metadata; see the module comment for what is kept per type. */
export function stripImageMetadata(data: Buffer, contentType: string): Buffer {
  const type = contentType.split(';')[0].trim().toLowerCase();
  switch (type) {
    case 'image/jpeg':
    case 'image/jpg':
    case 'image/pjpeg':
      return stripJpeg(data);
    case 'image/png':
      return stripPng(data);
    case 'image/webp':
      return stripWebp(data);
    default:
      return data;
  }
}

// --- JPEG -----------------------------------------------------------------------------------------

const EXIF_HEADER = Buffer.from('Exif\0\0', 'latin1');
const ICC_HEADER = Buffer.from('ICC_PROFILE\0', 'latin1');
const JFXX_HEADER = Buffer.from('JFXX\0', 'latin1');
const ORIENTATION_TAG = 0x0112;

function startsWith(buffer: Buffer, prefix: Buffer): boolean {
  return buffer.length >= prefix.length && buffer.subarray(0, prefix.length).equals(prefix);
}

/** Whether the JPEG segment with this marker code and payload is kept. */
function keepJpegSegment(code: number, payload: Buffer): boolean {
  if (code === 0xe0) return !startsWith(payload, JFXX_HEADER);
  if (code === 0xe2) return startsWith(payload, ICC_HEADER);
  if (code === 0xee) return true; // Adobe
  if (code >= 0xe1 && code <= 0xef) return false;
  return code !== 0xfe; // COM
}

/** Whether `code` after 0xFF inside entropy-coded data ends that data (a marker). */
function endsScan(code: number): boolean {
  // 0x00 is a stuffed 0xFF, RSTn belong to the scan, 0x01–0xBF never follow 0xFF in a scan
  // (JPEG-LS stuffs with them); 0xFF is a fill byte before a marker.
  return code >= 0xc0 && !(code >= 0xd0 && code <= 0xd7) && code !== 0xff;
}

function stripJpeg(data: Buffer): Buffer {
  const fail = (reason: string): never => {
    throw new ImageMetadataError(`stripImageMetadata: not a walkable JPEG (${reason})`);
  };
  if (data.length < 4 || data[0] !== 0xff || data[1] !== 0xd8) fail('no SOI marker');
  const out: Buffer[] = [data.subarray(0, 2)];
  let insertAt = 1; // after SOI and the APP0 segments right behind it
  let orientation: number | undefined;
  let exifRead = false;
  let inScans = false; // from the first SOS on, a truncated file keeps what it has
  let pos = 2;
  for (;;) {
    if (pos >= data.length) {
      if (!inScans) fail('ends before the first scan');
      break;
    }
    if (data[pos] !== 0xff) {
      // Stray bytes between segments (libjpeg skips them too): on to the next 0xFF.
      const next = data.indexOf(0xff, pos);
      pos = next === -1 ? data.length : next;
      continue;
    }
    while (pos + 1 < data.length && data[pos + 1] === 0xff) pos++; // fill bytes
    if (pos + 1 >= data.length) {
      pos = data.length;
      continue;
    }
    const code = data[pos + 1];
    if (code === 0x00) {
      pos += 2;
      continue;
    }
    if (code === 0xd9) {
      out.push(data.subarray(pos, pos + 2)); // EOI: what follows is not this image
      break;
    }
    if (code === 0xd8) fail(`second SOI at byte ${pos}`);
    if (code === 0x01 || (code >= 0xd0 && code <= 0xd7)) {
      out.push(data.subarray(pos, pos + 2)); // marker without a length
      pos += 2;
      continue;
    }
    const length = pos + 4 <= data.length ? data.readUInt16BE(pos + 2) : 0;
    const end = pos + 2 + length;
    if (length < 2 || end > data.length) {
      if (!inScans) fail(`segment 0xFF${code.toString(16).toUpperCase()} at byte ${pos} runs past the end`);
      out.push(data.subarray(pos));
      break;
    }
    const payload = data.subarray(pos + 4, end);
    if (code === 0xe1 && !exifRead && startsWith(payload, EXIF_HEADER)) {
      exifRead = true;
      orientation = readOrientation(payload.subarray(EXIF_HEADER.length));
    }
    if (keepJpegSegment(code, payload)) {
      if (code === 0xe0 && insertAt === out.length) insertAt++;
      out.push(data.subarray(pos, end));
    }
    pos = end;
    if (code === 0xda) {
      inScans = true;
      let scan = pos;
      while (scan + 1 < data.length && !(data[scan] === 0xff && endsScan(data[scan + 1]))) scan++;
      if (scan + 1 >= data.length) scan = data.length; // no marker: the file ends inside the scan
      out.push(data.subarray(pos, scan));
      pos = scan;
    }
  }
  if (orientation !== undefined && orientation !== 1) out.splice(insertAt, 0, orientationApp1(orientation));
  return Buffer.concat(out);
}

/** The Orientation of IFD0 of a TIFF structure (either byte order), when present and valid (1–8). */
function readOrientation(tiff: Buffer): number | undefined {
  if (tiff.length < 8) return undefined;
  const order = tiff.toString('latin1', 0, 2);
  const little = order === 'II';
  if (!little && order !== 'MM') return undefined;
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  if (u16(2) !== 42) return undefined;
  const ifd = u32(4);
  if (ifd < 8 || ifd + 2 > tiff.length) return undefined;
  const count = u16(ifd);
  for (let i = 0; i < count; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > tiff.length) return undefined;
    if (u16(entry) !== ORIENTATION_TAG) continue;
    const type = u16(entry + 2);
    const value = type === 3 ? u16(entry + 8) : type === 4 ? u32(entry + 8) : 0; // SHORT (LONG tolerated)
    return value >= 1 && value <= 8 ? value : undefined;
  }
  return undefined;
}

/** APP1 `Exif\0\0` with a big-endian TIFF whose IFD0 holds only Orientation. */
function orientationApp1(orientation: number): Buffer {
  const tiff = Buffer.alloc(8 + 2 + 12 + 4);
  tiff.write('MM', 0, 'latin1');
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(8, 4); // IFD0 right after the header
  tiff.writeUInt16BE(1, 8); // one entry
  tiff.writeUInt16BE(ORIENTATION_TAG, 10);
  tiff.writeUInt16BE(3, 12); // SHORT
  tiff.writeUInt32BE(1, 14); // count
  tiff.writeUInt16BE(orientation, 18); // value, left-justified in the 4-byte field
  // bytes 22–25: next IFD offset 0
  const header = Buffer.alloc(4);
  header.writeUInt16BE(0xffe1, 0);
  header.writeUInt16BE(2 + EXIF_HEADER.length + tiff.length, 2);
  return Buffer.concat([header, EXIF_HEADER, tiff]);
}

// --- PNG ------------------------------------------------------------------------------------------

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const PNG_DROPPED = new Set(['tEXt', 'zTXt', 'iTXt', 'eXIf', 'tIME']);

function stripPng(data: Buffer): Buffer {
  const fail = (reason: string): never => {
    throw new ImageMetadataError(`stripImageMetadata: not a walkable PNG (${reason})`);
  };
  if (!startsWith(data, PNG_SIGNATURE)) fail('no PNG signature');
  const out: Buffer[] = [PNG_SIGNATURE];
  let pos = PNG_SIGNATURE.length;
  while (pos < data.length) {
    if (pos + 12 > data.length) fail(`chunk header at byte ${pos} runs past the end`);
    const end = pos + 12 + data.readUInt32BE(pos);
    if (end > data.length) fail(`chunk at byte ${pos} runs past the end`);
    const type = data.toString('latin1', pos + 4, pos + 8);
    if (!PNG_DROPPED.has(type)) out.push(data.subarray(pos, end));
    pos = end;
    if (type === 'IEND') break;
  }
  return Buffer.concat(out);
}

// --- WebP -----------------------------------------------------------------------------------------

const VP8X_EXIF = 0x08;
const VP8X_XMP = 0x04;

function stripWebp(data: Buffer): Buffer {
  const fail = (reason: string): never => {
    throw new ImageMetadataError(`stripImageMetadata: not a walkable WebP (${reason})`);
  };
  if (data.length < 12 || data.toString('latin1', 0, 4) !== 'RIFF' || data.toString('latin1', 8, 12) !== 'WEBP') fail('no RIFF WEBP header');
  const riffEnd = Math.min(data.length, 8 + data.readUInt32LE(4));
  const chunks: Buffer[] = [];
  let pos = 12;
  while (pos < riffEnd) {
    if (pos + 8 > riffEnd) fail(`chunk header at byte ${pos} runs past the end`);
    const fourcc = data.toString('latin1', pos, pos + 4);
    const size = data.readUInt32LE(pos + 4);
    const end = pos + 8 + size;
    if (end > riffEnd) fail(`chunk ${JSON.stringify(fourcc)} at byte ${pos} runs past the end`);
    if (fourcc !== 'EXIF' && fourcc !== 'XMP ') {
      const chunk = Buffer.from(data.subarray(pos, end)); // a copy: VP8X is changed below
      if (fourcc === 'VP8X' && size >= 1) chunk[8] &= ~(VP8X_EXIF | VP8X_XMP);
      chunks.push(chunk);
      if (size % 2 === 1) chunks.push(Buffer.alloc(1)); // padding
    }
    pos = Math.min(riffEnd, end + (size % 2)); // a missing final padding byte is tolerated
  }
  const body = Buffer.concat(chunks);
  const header = Buffer.alloc(12);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(4 + body.length, 4);
  header.write('WEBP', 8, 'latin1');
  return Buffer.concat([header, body]);
}
