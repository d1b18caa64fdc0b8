// Real, decodable JPEGs for the media benchmarks, made with sharp (libvips), each one different.
// Encoding a JPEG of millions of pixels takes a tenth of a second to a second, too slow for a
// thousand photos; so a few bases are encoded, and each photo is a base with one low-frequency
// entry of its luma quantisation table (DQT) raised by 1–3 and a comment (COM) with a unique tag: its
// entropy-coded data is untouched (it stays a valid JPEG that decodes in full), but its decoded
// pixels differ from every other photo's (one spatial frequency of the brightness scaled a little
// in every block), so its sha256, and the renditions made from it, are its own.
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';

/** Random pixels (white noise): the most entropy a JPEG can carry, so the most bytes per pixel. */
export function noisePixels(width: number, height: number): Buffer {
  return randomBytes(width * height * 3);
}

/**
 * Pixels like a photo's: smooth gradients over the whole image (a different one per `seed`) plus
 * noise of ±`noise`/2 per pixel (sensor noise and texture: what makes a photo's JPEG a few MB).
 */
export function photoLikePixels(width: number, height: number, seed: number, noise: number): Buffer {
  const raw = Buffer.allocUnsafe(width * height * 3);
  const grain = randomBytes(width * height);
  const a = 0.6 + (seed % 7) / 5;
  const b = 0.9 + (seed % 5) / 4;
  const phase = seed * 0.7;
  // sin(u + v) = sin u cos v + cos u sin v: one sine per column and per row instead of per pixel.
  const sinU = new Float64Array(width);
  const cosU = new Float64Array(width);
  for (let x = 0; x < width; x++) {
    sinU[x] = Math.sin(2 * Math.PI * a * (x / width) + phase);
    cosU[x] = Math.cos(2 * Math.PI * a * (x / width) + phase);
  }
  const clamp = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : v);
  let i = 0;
  let g = 0;
  for (let y = 0; y < height; y++) {
    const fy = y / height;
    const sinV = Math.sin(2 * Math.PI * b * fy);
    const cosV = Math.cos(2 * Math.PI * b * fy);
    const green = 60 + 150 * fy;
    for (let x = 0; x < width; x++) {
      const n = (grain[g++] / 255 - 0.5) * noise;
      const fx = x / width;
      raw[i++] = clamp(128 + 90 * (sinU[x] * cosV + cosU[x] * sinV) + n);
      raw[i++] = clamp(green + 30 * cosU[x] + n);
      raw[i++] = clamp(200 - 140 * fx * fy + n);
    }
  }
  return raw;
}

/** Baseline JPEG of 8-bit RGB pixels at `quality` (sharp's defaults otherwise: 4:2:0, two quantisation tables). */
export function encodeJpeg(pixels: Buffer, width: number, height: number, quality: number): Promise<Buffer> {
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality })
    .toBuffer();
}

/** Offset of the 64 values of the 8-bit luma quantisation table (table 0) in a JPEG, inside its DQT segments before the first scan. */
function lumaTable(jpeg: Buffer): number {
  let at = 2; // after SOI
  while (at + 4 <= jpeg.length && jpeg[at] === 0xff) {
    const marker = jpeg[at + 1];
    const length = jpeg.readUInt16BE(at + 2);
    if (marker === 0xda) break; // SOS: the scan follows
    if (marker === 0xdb) {
      for (let t = at + 4; t < at + 2 + length;) {
        const precision = jpeg[t] >> 4;
        if (precision === 0 && (jpeg[t] & 0x0f) === 0) return t + 1;
        t += 1 + (precision === 0 ? 64 : 128);
      }
    }
    at += 2 + length;
  }
  throw new Error('The JPEG has no 8-bit luma quantisation table.');
}

/** Low-frequency entries varied (zigzag 1–20: coefficients that a photo's blocks, smooth or not, carry), each by 1, 2 or 3. */
const ENTRIES = 20;
const DELTAS = 3;
/** Photos of one base that differ in their pixels. */
export const VARIANTS_PER_BASE = ENTRIES * DELTAS;

/**
 * Photos made from `bases` (JPEGs): `next()` gives a new one each time, different in its bytes and
 * (for fewer than bases × VARIANTS_PER_BASE photos) in its decoded pixels from every other photo of
 * the family; beyond that only their bytes differ.
 */
export class PhotoFamily {
  private made = 0;
  private readonly tables: number[];
  private readonly tag = randomBytes(6).toString('hex');

  constructor(readonly bases: readonly Buffer[]) {
    this.tables = bases.map(lumaTable);
  }

  next(): Buffer {
    const n = this.made++;
    const b = n % this.bases.length;
    const m = Math.floor(n / this.bases.length);
    const at = this.tables[b] + 1 + (m % ENTRIES); // an AC coefficient: the DC stays as it is
    const copy = Buffer.from(this.bases[b]);
    copy[at] = Math.min(255, copy[at] + 1 + (Math.floor(m / ENTRIES) % DELTAS));
    const text = Buffer.from(`bench photo ${this.tag}-${n}`, 'latin1');
    const comment = Buffer.alloc(4 + text.length);
    comment.writeUInt16BE(0xfffe, 0);
    comment.writeUInt16BE(2 + text.length, 2);
    text.copy(comment, 4);
    return Buffer.concat([copy.subarray(0, 2), comment, copy.subarray(2)]);
  }
}

/** Bases a family needs for `photos` photos that all differ in their pixels, at least `minimum`. */
export const basesFor = (photos: number, minimum: number) => Math.max(minimum, Math.ceil(photos / VARIANTS_PER_BASE));

/** A family of `bases` noise JPEGs of `width` × `height` at `quality`. */
export async function noiseFamily(width: number, height: number, quality: number, bases: number): Promise<PhotoFamily> {
  const jpegs: Buffer[] = [];
  for (let i = 0; i < bases; i++) jpegs.push(await encodeJpeg(noisePixels(width, height), width, height, quality));
  return new PhotoFamily(jpegs);
}

/** A family of `bases` photo-like JPEGs (gradients and noise of amplitude `noise`) of `width` × `height` at `quality`. */
export async function photoLikeFamily(
  width: number,
  height: number,
  quality: number,
  noise: number,
  bases: number,
): Promise<PhotoFamily> {
  const jpegs: Buffer[] = [];
  for (let i = 0; i < bases; i++)
    jpegs.push(await encodeJpeg(photoLikePixels(width, height, i + 1, noise), width, height, quality));
  return new PhotoFamily(jpegs);
}

/**
 * Noise JPEGs of about `bytes` each at `quality`, 4:3: the size is measured on one 1600 × 1200
 * image and the sides scaled (bytes grow with the pixels), rounded to multiples of 16.
 */
export async function noiseFamilyOfSize(
  bytes: number,
  quality: number,
  bases: number,
): Promise<{ family: PhotoFamily; width: number; height: number }> {
  const probe = await encodeJpeg(noisePixels(1600, 1200), 1600, 1200, quality);
  const scale = Math.sqrt(bytes / probe.length);
  const width = Math.max(64, Math.round((1600 * scale) / 16) * 16);
  const height = Math.max(48, Math.round((width * 3) / 4 / 16) * 16);
  return { family: await noiseFamily(width, height, quality, bases), width, height };
}
