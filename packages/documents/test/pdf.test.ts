import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import {
  factsTable,
  fitImage,
  heading,
  imageFormat,
  imageGrid,
  paragraph,
  renderPdf,
  type PdfDocument,
} from '../src/pdf.js';

const work = mkdtempSync(join(tmpdir(), 'pdf-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let files = 0;
/** Runs a poppler tool on the PDF (written to the test's temp dir) and returns its output. */
function poppler(tool: 'pdftotext' | 'pdfimages' | 'pdfinfo', pdf: Buffer): string {
  const file = join(work, `${++files}.pdf`);
  writeFileSync(file, pdf);
  const args = tool === 'pdftotext' ? [file, '-'] : tool === 'pdfimages' ? ['-list', file] : [file];
  return execFileSync(tool, args, { encoding: 'utf8' });
}

/** The images `pdfimages -list` reports, in page and drawing order. */
function listImages(pdf: Buffer): Array<{ width: number; height: number; encoding: string }> {
  return poppler('pdfimages', pdf)
    .split('\n')
    .slice(2)
    .filter((line) => line.trim())
    .map((line) => line.trim().split(/\s+/))
    .map((cols) => ({ width: Number(cols[3]), height: Number(cols[4]), encoding: cols[8] }));
}

/** A baseline greyscale JPEG of one flat grey level, written by hand (every 8×8 block: a DC value, then end-of-block). */
function solidJpeg(width: number, height: number, grey: number): Buffer {
  const dc = 8 * (grey - 128); // the DCT's DC term of a flat block, quantised by 1
  if (dc === 0) throw new Error('pick a grey level other than 128');
  const category = Math.abs(dc).toString(2).length;
  const segment = (marker: number, body: number[]) => [
    0xff,
    marker,
    (body.length + 2) >> 8,
    (body.length + 2) & 0xff,
    ...body,
  ];
  const bits: number[] = [];
  const put = (value: number, length: number) => {
    for (let i = length - 1; i >= 0; i--) bits.push((value >> i) & 1);
  };
  for (let block = 0; block < Math.ceil(width / 8) * Math.ceil(height / 8); block++) {
    if (block === 0) {
      put(0b01, 2); // DC category code, then the difference's bits
      put(dc > 0 ? dc : dc + (1 << category) - 1, category);
    } else put(0b00, 2); // DC difference 0
    put(0, 1); // end of block
  }
  while (bits.length % 8) bits.push(1);
  const scan: number[] = [];
  for (let i = 0; i < bits.length; i += 8) {
    const byte = parseInt(bits.slice(i, i + 8).join(''), 2);
    scan.push(...(byte === 0xff ? [0xff, 0x00] : [byte]));
  }
  return Buffer.from([
    ...[0xff, 0xd8],
    ...segment(0xdb, [0x00, ...new Array<number>(64).fill(1)]),
    ...segment(0xc0, [8, height >> 8, height & 0xff, width >> 8, width & 0xff, 1, 1, 0x11, 0]),
    ...segment(0xc4, [0x00, 0, 2, ...new Array<number>(14).fill(0), 0, category]), // DC codes: 00 → 0, 01 → category
    ...segment(0xc4, [0x10, 1, ...new Array<number>(15).fill(0), 0x00]), // AC code: 0 → end of block
    ...segment(0xda, [1, 1, 0x00, 0, 63, 0]),
    ...scan,
    ...[0xff, 0xd9],
  ]);
}

/** A small RGB PNG of one colour. */
function solidPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0x80)]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 '), Buffer.alloc(16)]);
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

function sample(createdAt: Date, extra: (doc: PdfDocument) => void = () => {}) {
  return renderPdf({ title: 'Exposé: Köln-Süd', subject: 'Test', createdAt }, (doc) => {
    heading(doc, 'Helle Wohnung in Köln-Süd, Maßstab', { level: 1 });
    paragraph(doc, 'Größe, Höhe, Übergabe: 420.000 € — 95 kWh/(m²·a)');
    factsTable(doc, [
      ['Wohnfläche', '85,5 m²'],
      ['Etage', null],
      ['Zimmer', '3'],
    ]);
    fitImage(doc, solidJpeg(40, 24, 200), { x: doc.x, y: doc.y, width: 200, height: 150 });
    extra(doc);
  });
}

describe('renderPdf', () => {
  it('gives the same bytes for the same input, and other bytes for another createdAt', async () => {
    const at = new Date('2026-03-01T09:30:00Z');
    const first = await sample(at);
    expect(first.subarray(0, 5).toString()).toBe('%PDF-');
    expect(sha256(await sample(at))).toBe(sha256(first));
    expect(sha256(await sample(new Date('2026-03-01T09:30:01Z')))).not.toBe(sha256(first));
  });

  it('fixes the metadata dates to createdAt', async () => {
    const info = poppler('pdfinfo', await sample(new Date('2026-03-01T09:30:00Z')));
    expect(info).toMatch(/Title:\s+Exposé: Köln-Süd/);
    expect(info).toMatch(/CreationDate:\s+Sun Mar\s+1 09:30:00 2026 UTC/);
    expect(info).toMatch(/ModDate:\s+Sun Mar\s+1 09:30:00 2026 UTC/);
  });

  it('renders German text with the built-in Helvetica (pdftotext round trip)', async () => {
    const text = poppler('pdftotext', await sample(new Date('2026-03-01T09:30:00Z')));
    expect(text).toContain('Helle Wohnung in Köln-Süd, Maßstab');
    expect(text).toContain('Größe, Höhe, Übergabe: 420.000 € — 95 kWh/(m²·a)');
    expect(text).toContain('Wohnfläche');
    expect(text).toContain('85,5 m²');
    expect(text).not.toContain('Etage'); // a null fact is left out
  });

  it('embeds JPEG and PNG images and skips formats pdfkit cannot embed', async () => {
    const results: boolean[] = [];
    const pdf = await sample(new Date('2026-03-01T09:30:00Z'), (doc) => {
      results.push(fitImage(doc, WEBP, { x: 50, y: 400, width: 100, height: 100 }));
      results.push(fitImage(doc, Buffer.from([0xff, 0xd8, 0xff, 0x00]), { x: 50, y: 400, width: 100, height: 100 })); // damaged JPEG
      results.push(fitImage(doc, solidPng(12, 10), { x: 50, y: 400, width: 100, height: 100 }));
    });
    expect(results).toEqual([false, false, true]);
    expect(listImages(pdf)).toEqual([
      { width: 40, height: 24, encoding: 'jpeg' },
      { width: 12, height: 10, encoding: 'image' },
    ]);
    expect([imageFormat(solidJpeg(8, 8, 10)), imageFormat(solidPng(1, 1)), imageFormat(WEBP)]).toEqual([
      'jpeg',
      'png',
      null,
    ]);
  });

  it('breaks pages for long tables and image grids, keeping every row and image in order', async () => {
    const images = [
      solidJpeg(16, 8, 20),
      WEBP,
      solidJpeg(8, 16, 60),
      solidJpeg(24, 8, 100),
      solidJpeg(8, 24, 140),
      solidJpeg(32, 8, 180),
    ];
    let drawn = 0;
    const pdf = await renderPdf({ title: 'Long', createdAt: new Date('2026-03-01T09:30:00Z') }, async (doc) => {
      factsTable(
        doc,
        Array.from({ length: 80 }, (_, i) => [`Zeile ${i}`, `Wert ${i}`] as const),
      );
      drawn = await imageGrid(doc, [...images.map((data) => async () => data), async () => null], {
        columns: 2,
        height: 250,
      });
    });
    expect(drawn).toBe(5);
    expect(poppler('pdfinfo', pdf)).toMatch(/Pages:\s+[4-9]\n/);
    const text = poppler('pdftotext', pdf);
    for (let i = 0; i < 80; i++) expect(text).toMatch(new RegExp(`Zeile ${i}\\s+Wert ${i}\\s`));
    expect(listImages(pdf).map(({ width, height }) => `${width}x${height}`)).toEqual([
      '16x8',
      '8x16',
      '24x8',
      '8x24',
      '32x8',
    ]);
  });
});
