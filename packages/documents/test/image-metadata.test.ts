import { crc32 } from 'node:zlib';
import PDFDocument from 'pdfkit';
import { describe, expect, it } from 'vitest';
import { jpeg, pdf, png, webp } from '@platform/uploads/testing';
import { ImageMetadataError, stripImageMetadata } from '../src/image-metadata.js';

// Strings planted in the metadata: none may survive.
const SECRETS = ['GPSSECRET', 'SERIAL-12345', 'MAKERSECRET', 'XMPSECRET', 'IPTCSECRET', 'MPFSECRET', 'COMSECRET', 'TRAILERSECRET', 'TIMESECRET'];

function expectNoSecrets(out: Buffer, extra: string[] = []): void {
  for (const secret of [...SECRETS, ...extra]) expect(out.includes(Buffer.from(secret, 'latin1')), secret).toBe(false);
}

// --- JPEG helpers ---------------------------------------------------------------------------------

function segment(code: number, payload: Buffer | string): Buffer {
  const body = typeof payload === 'string' ? Buffer.from(payload, 'latin1') : payload;
  const header = Buffer.alloc(4);
  header.writeUInt16BE(0xff00 | code, 0);
  header.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([header, body]);
}

interface Part {
  code: number;
  bytes: Buffer;
}

/** The header segments of a JPEG up to SOS (test-side walker: no fill bytes, no stray bytes). */
function headerSegments(data: Buffer): Part[] {
  const parts: Part[] = [{ code: 0xd8, bytes: data.subarray(0, 2) }];
  let pos = 2;
  while (pos < data.length) {
    const code = data[pos + 1];
    if (code === 0xd9) {
      parts.push({ code, bytes: data.subarray(pos, pos + 2) });
      break;
    }
    const end = pos + 2 + data.readUInt16BE(pos + 2);
    parts.push({ code, bytes: data.subarray(pos, end) });
    pos = end;
    if (code === 0xda) break;
  }
  return parts;
}

/** The segments of the `jpeg()` fixture (SOI, APP0 JFIF, COM, SOF0, EOI). */
function fixtureJpeg() {
  const parts = headerSegments(jpeg(64, 48, 'COMSECRET-fixture'));
  const find = (code: number) => parts.find((part) => part.code === code)!.bytes;
  return { app0: find(0xe0), com: find(0xfe), sof: find(0xc0) };
}

type Order = 'II' | 'MM';
interface IfdEntry {
  tag: number;
  type: number;
  count: number;
  /** 4 bytes, or data placed after the IFD (its offset goes in the entry). */
  value: Buffer | number;
}

/** A TIFF structure: IFD0 and optional sub-IFDs, laid out one after the other. */
function tiff(order: Order, ifds: IfdEntry[][]): Buffer {
  const le = order === 'II';
  const u16 = (n: number) => {
    const b = Buffer.alloc(2);
    if (le) b.writeUInt16LE(n);
    else b.writeUInt16BE(n);
    return b;
  };
  const u32 = (n: number) => {
    const b = Buffer.alloc(4);
    if (le) b.writeUInt32LE(n);
    else b.writeUInt32BE(n);
    return b;
  };
  const chunks: Buffer[] = [Buffer.from(order, 'latin1'), u16(42), u32(8)];
  let offset = 8;
  for (const entries of ifds) {
    const ifdSize = 2 + entries.length * 12 + 4;
    let dataOffset = offset + ifdSize;
    const table: Buffer[] = [u16(entries.length)];
    const extra: Buffer[] = [];
    for (const entry of entries) {
      table.push(u16(entry.tag), u16(entry.type), u32(entry.count));
      if (typeof entry.value === 'number') {
        table.push(entry.type === 3 ? Buffer.concat([u16(entry.value), Buffer.alloc(2)]) : u32(entry.value));
      } else if (entry.value.length <= 4) {
        table.push(Buffer.concat([entry.value, Buffer.alloc(4 - entry.value.length)]));
      } else {
        table.push(u32(dataOffset));
        extra.push(entry.value);
        dataOffset += entry.value.length;
      }
    }
    table.push(u32(0));
    chunks.push(...table, ...extra);
    offset = dataOffset;
  }
  return Buffer.concat(chunks);
}

/** An EXIF APP1 with Make, Orientation, a GPS IFD and an EXIF IFD with a serial number. */
function exifApp1(order: Order, orientation?: number): Buffer {
  const ascii = (text: string) => Buffer.from(`${text}\0`, 'latin1');
  const make = ascii('MAKERSECRET Camera');
  const serial = ascii('SERIAL-12345');
  const gpsMethod = Buffer.concat([Buffer.from('ASCII\0\0\0', 'latin1'), Buffer.from('GPSSECRET')]);
  const latitude = Buffer.from([0, 0, 0, 52, 0, 0, 0, 1, 0, 0, 0, 31, 0, 0, 0, 1, 0, 0, 0x30, 0x39, 0, 0, 0x03, 0xe8]);
  // Layout: IFD0 at 8, EXIF IFD then GPS IFD right after IFD0 and its data; offsets computed below.
  const ifd0 = (exifAt: number, gpsAt: number): IfdEntry[] => [
    { tag: 0x010f, type: 2, count: make.length, value: make },
    ...(orientation === undefined ? [] : [{ tag: 0x0112, type: 3, count: 1, value: orientation }]),
    { tag: 0x8769, type: 4, count: 1, value: exifAt },
    { tag: 0x8825, type: 4, count: 1, value: gpsAt },
  ];
  const exifIfd: IfdEntry[] = [{ tag: 0xa431, type: 2, count: serial.length, value: serial }];
  const gpsIfd: IfdEntry[] = [
    { tag: 0x0001, type: 2, count: 2, value: Buffer.from('N\0') },
    { tag: 0x0002, type: 5, count: 3, value: latitude },
    { tag: 0x001b, type: 7, count: gpsMethod.length, value: gpsMethod },
  ];
  const ifd0Size = 2 + ifd0(0, 0).length * 12 + 4 + make.length;
  const exifAt = 8 + ifd0Size;
  const gpsAt = exifAt + 2 + 12 + 4 + serial.length;
  return segment(0xe1, Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff(order, [ifd0(exifAt, gpsAt), exifIfd, gpsIfd])]));
}

const xmpApp1 = segment(0xe1, 'http://ns.adobe.com/xap/1.0/\0<x:xmpmeta><rdf:Description exif:GPSLatitude="XMPSECRET"/></x:xmpmeta>');
const iccApp2 = segment(0xe2, Buffer.concat([Buffer.from('ICC_PROFILE\0\x01\x01', 'latin1'), Buffer.alloc(40, 0x11)]));
const mpfApp2 = segment(0xe2, 'MPF\0MPFSECRET');
const photoshopApp13 = segment(0xed, 'Photoshop 3.0\x008BIM\x04\x04IPTCSECRET');
const adobeApp14 = segment(0xee, Buffer.from([0x41, 0x64, 0x6f, 0x62, 0x65, 0, 100, 0, 0, 0, 0, 1]));
const dqt = segment(0xdb, Buffer.concat([Buffer.from([0]), Buffer.alloc(64, 1)]));
const dht = segment(0xc4, Buffer.concat([Buffer.from([0]), Buffer.alloc(16, 0), Buffer.alloc(0)]));
const sos = segment(0xda, Buffer.from([1, 1, 0, 0, 63, 0]));
// Entropy-coded data with a stuffed 0xFF, restart markers and a fill byte before the next marker.
const scan1 = Buffer.from([0x12, 0xff, 0x00, 0x34, 0xff, 0xd0, 0x56, 0xff, 0x00, 0xff, 0xd7, 0x78, 0xff]);
const scan2 = Buffer.from([0x9a, 0xbc, 0xff, 0x00, 0xde]);
const betweenScans = segment(0xfe, 'COMSECRET between scans');
const EOI = Buffer.from([0xff, 0xd9]);
const SOI = Buffer.from([0xff, 0xd8]);

/** A JPEG with all kinds of metadata, two scans and a trailer after EOI; `orientation` null: EXIF without the tag. */
function photo(order: Order = 'II', orientation: number | null = 6): Buffer {
  const { app0, com, sof } = fixtureJpeg();
  return Buffer.concat([
    SOI,
    app0,
    exifApp1(order, orientation ?? undefined),
    xmpApp1,
    iccApp2,
    mpfApp2,
    photoshopApp13,
    com,
    adobeApp14,
    dqt,
    sof,
    dht,
    sos,
    scan1,
    dht,
    betweenScans,
    sos,
    scan2,
    EOI,
    Buffer.from('TRAILERSECRET: a second image with its own EXIF'),
  ]);
}

/** The orientation APP1 parsed back: all of its IFD0 entries. */
function parseApp1(app1: Buffer) {
  expect(app1.subarray(4, 10).toString('latin1')).toBe('Exif\0\0');
  const t = app1.subarray(10);
  expect(t.length).toBe(app1.readUInt16BE(2) - 8);
  expect(t.toString('latin1', 0, 2)).toBe('MM');
  expect(t.readUInt16BE(2)).toBe(42);
  const ifd = t.readUInt32BE(4);
  const count = t.readUInt16BE(ifd);
  const entries = Array.from({ length: count }, (_, i) => {
    const at = ifd + 2 + i * 12;
    return { tag: t.readUInt16BE(at), type: t.readUInt16BE(at + 2), count: t.readUInt32BE(at + 4), value: t.readUInt16BE(at + 8) };
  });
  return { entries, nextIfd: t.readUInt32BE(ifd + 2 + count * 12) };
}

/** What pdfkit reads from the JPEG (it rotates by the EXIF orientation). */
function pdfkitOrientation(data: Buffer): number {
  const doc = new PDFDocument() as unknown as { openImage(src: Buffer): { orientation: number } };
  return doc.openImage(data).orientation;
}

describe('stripImageMetadata: JPEG', () => {
  it('drops EXIF (GPS, serial), XMP, IPTC, MPF, comments and the trailer, and keeps JFIF, ICC, Adobe, tables and scans byte for byte', () => {
    const input = photo('II', 6);
    const out = stripImageMetadata(input, 'image/jpeg');
    expectNoSecrets(out);
    expect(input.includes(Buffer.from('GPSSECRET'))).toBe(true); // the test planted it

    const { app0, sof } = fixtureJpeg();
    const app1 = out.subarray(2 + app0.length, 2 + app0.length + 4 + 32);
    expect(out).toEqual(Buffer.concat([SOI, app0, app1, iccApp2, adobeApp14, dqt, sof, dht, sos, scan1, dht, sos, scan2, EOI]));
    expect(parseApp1(app1)).toEqual({ entries: [{ tag: 0x0112, type: 3, count: 1, value: 6 }], nextIfd: 0 });
  });

  it('reads the orientation of a big-endian EXIF too', () => {
    const out = stripImageMetadata(photo('MM', 8), 'image/jpeg');
    const app1 = headerSegments(out).find((part) => part.code === 0xe1)!.bytes;
    expect(parseApp1(app1).entries).toEqual([{ tag: 0x0112, type: 3, count: 1, value: 8 }]);
    expectNoSecrets(out);
  });

  it('keeps the orientation readable by pdfkit', () => {
    expect(pdfkitOrientation(photo('II', 6))).toBe(6);
    expect(pdfkitOrientation(stripImageMetadata(photo('II', 6), 'image/jpeg'))).toBe(6);
    expect(pdfkitOrientation(stripImageMetadata(photo('MM', 3), 'image/jpeg'))).toBe(3);
  });

  it('is idempotent', () => {
    for (const input of [photo('II', 6), photo('MM', 5), photo('II', 1), photo('II', null), jpeg(10, 10)]) {
      const once = stripImageMetadata(input, 'image/jpeg');
      expect(stripImageMetadata(once, 'image/jpeg')).toEqual(once);
    }
  });

  it('writes no APP1 for Orientation 1, no Orientation tag, an invalid one or no EXIF at all', () => {
    const { app0, com, sof } = fixtureJpeg();
    const noExif = Buffer.concat([SOI, app0, xmpApp1, com, dqt, sof, dht, sos, scan2, EOI]);
    for (const input of [photo('II', 1), photo('MM', 1), photo('II', null), photo('II', 9), noExif]) {
      const out = stripImageMetadata(input, 'image/jpeg');
      expect(headerSegments(out).map((part) => part.code)).not.toContain(0xe1);
      expectNoSecrets(out);
    }
  });

  it('places the orientation right after SOI when there is no APP0', () => {
    const { sof } = fixtureJpeg();
    const out = stripImageMetadata(Buffer.concat([SOI, exifApp1('II', 6), dqt, sof, sos, scan2, EOI]), 'image/jpeg');
    expect(headerSegments(out).map((part) => part.code)).toEqual([0xd8, 0xe1, 0xdb, 0xc0, 0xda]);
  });

  it('handles the header-only fixture (no scan) and drops its comment', () => {
    const input = jpeg(64, 48, 'COMSECRET-only');
    const { app0, sof } = fixtureJpeg();
    expect(stripImageMetadata(input, 'image/jpeg')).toEqual(Buffer.concat([SOI, app0, sof, EOI]));
  });

  it('skips fill bytes and stray bytes between header segments', () => {
    const { app0, sof } = fixtureJpeg();
    const input = Buffer.concat([SOI, Buffer.from([0xff, 0xff]), app0, Buffer.from([0x00, 0x12]), photoshopApp13, dqt, sof, sos, scan2, EOI]);
    expect(stripImageMetadata(input, 'image/jpeg')).toEqual(Buffer.concat([SOI, app0, dqt, sof, sos, scan2, EOI]));
  });

  it('keeps what a file truncated inside its scan data has', () => {
    const { app0, sof } = fixtureJpeg();
    const input = Buffer.concat([SOI, app0, photoshopApp13, dqt, sof, sos, scan2]);
    expect(stripImageMetadata(input, 'image/jpeg')).toEqual(Buffer.concat([SOI, app0, dqt, sof, sos, scan2]));
  });

  it('throws an ImageMetadataError for a JPEG whose header cannot be walked', () => {
    const { app0, sof } = fixtureJpeg();
    const truncated = Buffer.concat([SOI, app0, exifApp1('II', 6)]).subarray(0, 40);
    const badLength = Buffer.concat([SOI, app0, Buffer.from([0xff, 0xe1, 0x00, 0x01]), sof, EOI]);
    const noScan = Buffer.concat([SOI, app0, sof]);
    for (const input of [Buffer.from('not a jpeg'), Buffer.alloc(0), truncated, badLength, noScan, Buffer.concat([SOI, SOI, app0])]) {
      expect(() => stripImageMetadata(input, 'image/jpeg')).toThrow(ImageMetadataError);
    }
    expect(() => stripImageMetadata(truncated, 'image/jpeg')).toThrow(/not a walkable JPEG/);
  });
});

// --- PNG ------------------------------------------------------------------------------------------

function pngChunk(type: string, data: Buffer | string): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), typeof data === 'string' ? Buffer.from(data, 'latin1') : data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(body.length - 4);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function pngChunks(data: Buffer): { type: string; bytes: Buffer }[] {
  const chunks: { type: string; bytes: Buffer }[] = [];
  for (let pos = 8; pos < data.length; ) {
    const end = pos + 12 + data.readUInt32BE(pos);
    chunks.push({ type: data.toString('latin1', pos + 4, pos + 8), bytes: data.subarray(pos, end) });
    pos = end;
  }
  return chunks;
}

describe('stripImageMetadata: PNG', () => {
  const base = pngChunks(png(4, 3, 'COMSECRET-png'));
  const byType = (type: string) => base.find((chunk) => chunk.type === type)!.bytes;
  const phys = pngChunk('pHYs', Buffer.from([0, 0, 0x0b, 0x13, 0, 0, 0x0b, 0x13, 1]));
  const iccp = pngChunk('iCCP', Buffer.concat([Buffer.from('sRGB\0\0', 'latin1'), Buffer.alloc(8, 0x22)]));
  const input = Buffer.concat([
    png(1, 1).subarray(0, 8),
    byType('IHDR'),
    iccp,
    pngChunk('eXIf', Buffer.concat([Buffer.from('MM\0\x2a\0\0\0\x08', 'latin1'), Buffer.from('GPSSECRET')])),
    pngChunk('tIME', 'TIMESECRET'),
    byType('tEXt'),
    pngChunk('zTXt', 'Author\0\0MAKERSECRET'),
    pngChunk('iTXt', 'XML:com.adobe.xmp\0\0\0\0\0<x:xmpmeta>XMPSECRET</x:xmpmeta>'),
    phys,
    byType('IDAT'),
    byType('IEND'),
    Buffer.from('TRAILERSECRET'),
  ]);

  it('drops tEXt, zTXt, iTXt, eXIf, tIME and the trailer; the other chunks are copied whole with valid CRCs', () => {
    const out = stripImageMetadata(input, 'image/png');
    expectNoSecrets(out, ['COMSECRET-png']);
    const chunks = pngChunks(out);
    expect(chunks.map((chunk) => chunk.type)).toEqual(['IHDR', 'iCCP', 'pHYs', 'IDAT', 'IEND']);
    expect(out).toEqual(Buffer.concat([input.subarray(0, 8), byType('IHDR'), iccp, phys, byType('IDAT'), byType('IEND')]));
    for (const { bytes } of chunks) expect(bytes.readUInt32BE(bytes.length - 4)).toBe(crc32(bytes.subarray(4, bytes.length - 4)));
  });

  it('is idempotent', () => {
    const once = stripImageMetadata(input, 'image/png');
    expect(stripImageMetadata(once, 'image/png')).toEqual(once);
  });

  it('throws an ImageMetadataError for a PNG whose chunks cannot be walked', () => {
    expect(() => stripImageMetadata(input.subarray(0, 30), 'image/png')).toThrow(ImageMetadataError);
    expect(() => stripImageMetadata(Buffer.from('GIF89a'), 'image/png')).toThrow(/not a walkable PNG/);
  });
});

// --- WebP -----------------------------------------------------------------------------------------

function riffChunk(fourcc: string, data: Buffer | string): Buffer {
  const body = typeof data === 'string' ? Buffer.from(data, 'latin1') : data;
  const size = Buffer.alloc(4);
  size.writeUInt32LE(body.length);
  return Buffer.concat([Buffer.from(fourcc, 'latin1'), size, body, Buffer.alloc(body.length % 2)]);
}

function riff(chunks: Buffer[]): Buffer {
  const body = Buffer.concat(chunks);
  const size = Buffer.alloc(4);
  size.writeUInt32LE(4 + body.length);
  return Buffer.concat([Buffer.from('RIFF'), size, Buffer.from('WEBP'), body]);
}

function riffChunks(data: Buffer): { fourcc: string; data: Buffer }[] {
  const chunks: { fourcc: string; data: Buffer }[] = [];
  for (let pos = 12; pos < data.length; ) {
    const size = data.readUInt32LE(pos + 4);
    chunks.push({ fourcc: data.toString('latin1', pos, pos + 4), data: data.subarray(pos + 8, pos + 8 + size) });
    pos += 8 + size + (size % 2);
  }
  return chunks;
}

describe('stripImageMetadata: WebP', () => {
  // The fixture's VP8X chunk, with the ICC, alpha, EXIF and XMP flags set.
  const vp8x = Buffer.from(webp(640, 480).subarray(12));
  vp8x[8] = 0x20 | 0x10 | 0x08 | 0x04;
  const iccp = riffChunk('ICCP', 'abcde'); // odd: padded
  const alph = riffChunk('ALPH', Buffer.from([0, 1, 2, 3]));
  const vp8l = riffChunk('VP8L', Buffer.from([0x2f, 0x7f, 0xc0, 0x77, 0x00, 0xff, 0x01])); // odd: padded
  const input = Buffer.concat([
    riff([vp8x, iccp, alph, vp8l, riffChunk('EXIF', Buffer.concat([Buffer.from('II*\0\x08\0\0\0', 'latin1'), Buffer.from('GPSSECRET')])), riffChunk('XMP ', '<x:xmpmeta>XMPSECRET</x:xmpmeta>')]),
    Buffer.from('TRAILERSECRET'),
  ]);

  it('drops EXIF and XMP chunks, clears their VP8X flags, fixes the RIFF size and keeps the padding', () => {
    const out = stripImageMetadata(input, 'image/webp');
    expectNoSecrets(out);
    expect(out.toString('latin1', 0, 4)).toBe('RIFF');
    expect(out.readUInt32LE(4)).toBe(out.length - 8);
    const chunks = riffChunks(out);
    expect(chunks.map((chunk) => chunk.fourcc)).toEqual(['VP8X', 'ICCP', 'ALPH', 'VP8L']);
    expect(chunks[0].data[0]).toBe(0x20 | 0x10);
    expect(chunks[0].data.subarray(1)).toEqual(vp8x.subarray(9)); // canvas size untouched
    expect(out.subarray(12 + vp8x.length)).toEqual(Buffer.concat([iccp, alph, vp8l]));
  });

  it('is idempotent', () => {
    const once = stripImageMetadata(input, 'image/webp');
    expect(stripImageMetadata(once, 'image/webp')).toEqual(once);
  });

  it('leaves a WebP without metadata as it is', () => {
    const plain = webp(32, 32);
    expect(stripImageMetadata(plain, 'image/webp')).toEqual(plain);
  });

  it('throws an ImageMetadataError for a WebP whose chunks cannot be walked', () => {
    expect(() => stripImageMetadata(input.subarray(0, 34), 'image/webp')).toThrow(ImageMetadataError);
    expect(() => stripImageMetadata(Buffer.from('RIFF\0\0\0\0WAVE'), 'image/webp')).toThrow(/not a walkable WebP/);
  });
});

describe('stripImageMetadata: other types', () => {
  it('returns the data unchanged', () => {
    const document = pdf('GPSSECRET');
    expect(stripImageMetadata(document, 'application/pdf')).toBe(document);
    const jpegAsPdf = photo();
    expect(stripImageMetadata(jpegAsPdf, 'application/octet-stream')).toBe(jpegAsPdf);
  });

  it('reads the type case-insensitively and without parameters', () => {
    const input = photo();
    expect(stripImageMetadata(input, 'Image/JPEG; charset=binary')).toEqual(stripImageMetadata(input, 'image/jpeg'));
  });
});
