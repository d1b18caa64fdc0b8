// Test material for upload routes (`@platform/uploads/testing`): real files of each type, built
// in memory, and multipart/form-data bodies.
import { randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';

export function crc32(bytes: Buffer): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

export function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A valid grey PNG of the given size; `salt` makes its bytes (and sha256) unique. */
export function png(width: number, height: number, salt = randomBytes(8).toString('hex')): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale
  const rows = Buffer.alloc((width + 1) * height, 0x80);
  for (let y = 0; y < height; y++) rows[y * (width + 1)] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('tEXt', Buffer.from(`Comment\0${salt}`, 'latin1')),
    pngChunk('IDAT', deflateSync(rows)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

// The standard luminance Huffman tables of the JPEG specification (Annex K.3).
const DC_COUNTS = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0];
const DC_SYMBOLS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
const AC_COUNTS = [0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 0x7d];
// prettier-ignore
const AC_SYMBOLS = [
  0x01, 0x02, 0x03, 0x00, 0x04, 0x11, 0x05, 0x12, 0x21, 0x31, 0x41, 0x06, 0x13, 0x51, 0x61, 0x07, 0x22, 0x71, 0x14, 0x32, 0x81, 0x91, 0xa1, 0x08,
  0x23, 0x42, 0xb1, 0xc1, 0x15, 0x52, 0xd1, 0xf0, 0x24, 0x33, 0x62, 0x72, 0x82, 0x09, 0x0a, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x25, 0x26, 0x27, 0x28,
  0x29, 0x2a, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3a, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59,
  0x5a, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6a, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7a, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89,
  0x8a, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9, 0xaa, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6,
  0xb7, 0xb8, 0xb9, 0xba, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7, 0xc8, 0xc9, 0xca, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda, 0xe1, 0xe2,
  0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9, 0xea, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa,
];

function segment(marker: number, payload: Buffer | number[]): Buffer {
  const body = Buffer.from(payload);
  const header = Buffer.from([0xff, marker, 0, 0]);
  header.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([header, body]);
}

/**
 * A real baseline JPEG (greyscale, uniformly mid-grey) that any decoder reads in full: every 8×8
 * block is coded as DC difference 0 (`00`) and end-of-block (`1010`), 6 bits a block. `salt` goes
 * into a comment (COM), making its bytes and sha256 unique; `segments` are inserted after JFIF
 * (EXIF, XMP... for the metadata tests).
 */
export function jpeg(
  width: number,
  height: number,
  salt = randomBytes(8).toString('hex'),
  segments: readonly Buffer[] = [],
): Buffer {
  const blocks = Math.ceil(width / 8) * Math.ceil(height / 8);
  const bits = '001010'.repeat(blocks);
  const padded = bits + '1'.repeat((8 - (bits.length % 8)) % 8);
  const scan = Buffer.alloc(padded.length / 8);
  for (let i = 0; i < scan.length; i++) scan[i] = parseInt(padded.slice(i * 8, i * 8 + 8), 2);
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]),
    ...segments,
    segment(0xfe, Buffer.from(salt, 'latin1')),
    segment(0xdb, [0, ...new Array<number>(64).fill(1)]),
    segment(0xc0, [8, height >> 8, height & 255, width >> 8, width & 255, 1, 1, 0x11, 0]),
    segment(0xc4, [0x00, ...DC_COUNTS, ...DC_SYMBOLS, 0x10, ...AC_COUNTS, ...AC_SYMBOLS]),
    segment(0xda, [1, 1, 0x00, 0, 63, 0]),
    scan,
    Buffer.from([0xff, 0xd9]),
  ]);
}

/** Writes bits least significant first, as VP8L reads them. */
class BitWriter {
  private readonly bytes: number[] = [];
  private bit = 0;
  write(value: number, count: number): this {
    for (let i = 0; i < count; i++) {
      if (this.bit % 8 === 0) this.bytes.push(0);
      if ((value >> i) & 1) this.bytes[this.bytes.length - 1] |= 1 << (this.bit % 8);
      this.bit += 1;
    }
    return this;
  }
  buffer(): Buffer {
    return Buffer.from(this.bytes);
  }
}

/**
 * A real lossless WebP (VP8L) of one colour (grey by default), any size up to 16384 × 16384: all five
 * prefix codes are "simple" with a single symbol, so every pixel takes 0 bits. `chunks` (EXIF,
 * XMP...) follow the image data in a VP8X container.
 */
export function webp(
  width: number,
  height: number,
  chunks: readonly { fourcc: string; data: Buffer }[] = [],
  [r, g, b] = [0x80, 0x80, 0x80],
): Buffer {
  const bits = new BitWriter()
    .write(0x2f, 8)
    .write(width - 1, 14)
    .write(height - 1, 14)
    .write(0, 1)
    .write(0, 3);
  bits.write(0, 1); // no transform
  bits.write(0, 1); // no colour cache
  bits.write(0, 1); // no meta prefix codes
  for (const symbol of [g, r, b, 0xff, 0]) bits.write(1, 1).write(0, 1).write(1, 1).write(symbol, 8); // simple code, 1 symbol, 8 bits
  const riffChunk = (fourcc: string, data: Buffer) => {
    const size = Buffer.alloc(4);
    size.writeUInt32LE(data.length);
    return Buffer.concat([
      Buffer.from(fourcc, 'latin1'),
      size,
      data,
      data.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0),
    ]);
  };
  const image = riffChunk('VP8L', bits.buffer());
  let body: Buffer;
  if (chunks.length === 0) body = image;
  else {
    const vp8x = Buffer.alloc(10);
    vp8x[0] =
      (chunks.some((c) => c.fourcc === 'EXIF') ? 0x08 : 0) | (chunks.some((c) => c.fourcc === 'XMP ') ? 0x04 : 0);
    vp8x.writeUIntLE(width - 1, 4, 3);
    vp8x.writeUIntLE(height - 1, 7, 3);
    body = Buffer.concat([riffChunk('VP8X', vp8x), image, ...chunks.map((c) => riffChunk(c.fourcc, c.data))]);
  }
  const size = Buffer.alloc(4);
  size.writeUInt32LE(4 + body.length);
  return Buffer.concat([Buffer.from('RIFF'), size, Buffer.from('WEBP'), body]);
}

/** A real one-page PDF (A4, a line of text) with a correct cross-reference table; `text` also goes into a comment. */
export function pdf(text = randomBytes(8).toString('hex')): Buffer {
  const content = `BT /F1 24 Tf 72 760 Td (${text.replace(/[()\\]/g, '')}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ];
  let out = `%PDF-1.4\n% ${text}\n`;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** A ZIP archive with no entries (end-of-central-directory only) preceded by one stored entry. */
export function zip(name = 'a.txt', content = 'hello'): Buffer {
  const data = Buffer.from(content);
  const file = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt32LE(crc32(data), 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(file.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt32LE(crc32(data), 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(file.length, 28);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(46 + file.length, 12);
  end.writeUInt32LE(30 + file.length + data.length, 16);
  return Buffer.concat([local, file, data, central, file, end]);
}

export type FormPart =
  { name: string; value: string } | { name: string; filename: string; type?: string; data: Buffer };

/** A multipart/form-data body and its content type. */
export function multipart(parts: readonly FormPart[], boundary = `----test${randomBytes(8).toString('hex')}`) {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if ('value' in part) {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`));
    } else {
      chunks.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: ${part.type ?? 'application/octet-stream'}\r\n\r\n`,
        ),
      );
      chunks.push(part.data, Buffer.from('\r\n'));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * The markers of a JPEG's segments up to its first scan (`APP0`, `APP1`, `DQT`, `SOF0`, `DHT`, `COM`,
 * `SOS`...), and how many bytes follow its EOI: what a published rendition may carry besides pixels.
 */
export function jpegStructure(data: Buffer): { segments: string[]; trailing: number } {
  const names: Record<number, string> = {
    0xc0: 'SOF0',
    0xc1: 'SOF1',
    0xc2: 'SOF2',
    0xc4: 'DHT',
    0xdb: 'DQT',
    0xdd: 'DRI',
    0xda: 'SOS',
    0xfe: 'COM',
  };
  if (data[0] !== 0xff || data[1] !== 0xd8) throw new Error('not a JPEG');
  const segments: string[] = [];
  let pos = 2;
  while (pos + 4 <= data.length && data[pos] === 0xff) {
    const code = data[pos + 1];
    segments.push(names[code] ?? (code >= 0xe0 && code <= 0xef ? `APP${code - 0xe0}` : `0x${code.toString(16)}`));
    if (code === 0xda) break;
    pos += 2 + data.readUInt16BE(pos + 2);
  }
  const eoi = data.lastIndexOf(Buffer.from([0xff, 0xd9]));
  return { segments, trailing: eoi < 0 ? -1 : data.length - eoi - 2 };
}
