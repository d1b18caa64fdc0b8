import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import type { TaskSample } from '@platform/sandbox';
import { startTestApp, testSandbox } from '@platform/testkit';
import { jpegStructure } from '@platform/uploads/testing';
import { crc32 } from '@platform/uploads/testing/hostile';
import { buildPropertyApp } from '../src/app.js';
import { propertyDescriptor } from '../src/descriptor.js';
import type { PropertyTestContext } from './helpers.js';
import { uploadMedia } from './media-helpers.js';

// A seeded mutation test: a few thousand random byte changes and truncations of valid JPEG, PNG,
// WebP and PDF files go through the upload and, when accepted, the renditions. Every answer is
// 201 or 422 — never a 500, an uncaught error or a process that stops; whatever a decoder does
// with the bytes, it does in the sandbox.

const SEED = 0x5eed_2029;
const PER_FORMAT: Record<'jpeg' | 'png' | 'webp' | 'pdf', number> = { jpeg: 600, png: 600, webp: 600, pdf: 600 };
/** PDFs uploaded as floor plans (rendered) rather than documents (parsed only): every fifth. */
const RENDERED_PDF_EVERY = 5;
const PARALLEL = 4;

/** mulberry32: a small, fast, seeded generator (the same mutants on every run). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Flips bytes (more often near the start, where the headers are), truncates, or both. */
function mutate(data: Buffer, next: () => number): Buffer {
  const out = Buffer.from(data);
  const mode = next();
  if (mode < 0.7) {
    const flips = 1 + Math.floor(next() * 16);
    for (let i = 0; i < flips; i++) {
      const near = next() < 0.5 ? Math.min(out.length, 512) : out.length;
      out[Math.floor(next() * near)] = Math.floor(next() * 256);
    }
  }
  if (mode >= 0.5) return out.subarray(0, Math.max(1, Math.floor(next() * out.length)));
  return out;
}

/** A PNG's chunks with their CRCs made right again where the structure still holds: flips then reach the decoder, not only the CRC check. */
function withPngChecksums(data: Buffer): Buffer {
  const out = Buffer.from(data);
  for (let pos = 8; pos + 12 <= out.length;) {
    const end = pos + 12 + out.readUInt32BE(pos);
    if (end > out.length) break;
    out.writeUInt32BE(crc32(out.subarray(pos + 4, end - 4)), end - 4);
    pos = end;
  }
  return out;
}

async function bases() {
  const width = 96;
  const height = 64;
  const pixels = Buffer.alloc(width * height * 4);
  const next = random(SEED);
  for (let i = 0; i < pixels.length; i += 4) {
    const x = (i / 4) % width;
    pixels.set([(x * 2 + next() * 40) & 255, (i / 4 / width) * 3 + next() * 40, 128, 255], i);
  }
  const image = () => sharp(pixels, { raw: { width, height, channels: 4 } });
  const document = await PDFDocument.create();
  const page = document.addPage([300, 200]);
  page.drawText('Grundriss EG', { x: 20, y: 160, size: 18, font: await document.embedFont(StandardFonts.Helvetica) });
  page.drawRectangle({ x: 20, y: 20, width: 200, height: 120, borderWidth: 2 });
  page.drawImage(await document.embedJpg(await image().jpeg().toBuffer()), { x: 230, y: 20, width: 48, height: 32 });
  return {
    jpeg: { type: 'image/jpeg', data: await image().jpeg({ quality: 85, progressive: true }).toBuffer() },
    png: { type: 'image/png', data: await image().png().toBuffer() },
    webp: { type: 'image/webp', data: await image().webp({ quality: 80 }).toBuffer() },
    pdf: { type: 'application/pdf', data: Buffer.from(await document.save()) },
  } as const;
}

let ctx: PropertyTestContext;
const samples: TaskSample[] = [];
beforeAll(async () => {
  ctx = await startTestApp(propertyDescriptor, buildPropertyApp, {
    sandbox: testSandbox({ onTask: (sample) => samples.push(sample) }),
  });
});
afterAll(() => ctx.close());

describe('upload mutations', () => {
  it(
    `${Object.values(PER_FORMAT).reduce((a, b) => a + b)} mutated JPEG, PNG, WebP and PDF files: each 201 with clean renditions or 422, never more`,
    { timeout: 400_000 },
    async () => {
      const files = await bases();
      const next = random(SEED + 1);
      const jobs: { format: keyof typeof PER_FORMAT; kind: string; type: string; data: Buffer }[] = [];
      for (const format of Object.keys(PER_FORMAT) as (keyof typeof PER_FORMAT)[]) {
        for (let i = 0; i < PER_FORMAT[format]; i++) {
          const kind = format !== 'pdf' ? 'photo' : i % RENDERED_PDF_EVERY === 0 ? 'floor_plan' : 'document';
          const mutant = mutate(files[format].data, next);
          jobs.push({
            format,
            kind,
            type: files[format].type,
            data: format === 'png' && i % 2 === 0 ? withPngChecksums(mutant) : mutant,
          });
        }
      }
      const tally = new Map<string, number>();
      const count = (key: string) => tally.set(key, (tally.get(key) ?? 0) + 1);
      const unexpected: string[] = [];
      let property = '';
      let onProperty = 0;
      const newProperty = async () => {
        property = (
          await ctx.send('POST', '/v1/properties', {
            type: 'apartment',
            title: 'Mutanten',
            address: { postal_code: '10115', city: 'Berlin' },
          })
        ).json().id;
        onProperty = 0;
      };
      await newProperty();
      let checked = 0;
      for (let start = 0; start < jobs.length; start += PARALLEL) {
        if (onProperty + PARALLEL > 90) await newProperty();
        onProperty += PARALLEL;
        await Promise.all(
          jobs.slice(start, start + PARALLEL).map(async (job, offset) => {
            const res = await uploadMedia(ctx, property, [
              { name: 'kind', value: job.kind },
              { name: 'file', filename: 'mutant', type: job.type, data: job.data },
            ]);
            count(`${job.format} ${res.statusCode}`);
            if (res.statusCode === 422) {
              const [detail] = res.json().details ?? [];
              if (
                detail?.field !== 'file' ||
                !['invalid_format', 'out_of_range', 'not_allowed'].includes(detail.reason)
              )
                unexpected.push(`#${start + offset} ${job.format}: 422 ${res.body}`);
              return;
            }
            if (res.statusCode !== 201)
              return void unexpected.push(
                `#${start + offset} ${job.format}: ${res.statusCode} ${res.body.slice(0, 300)}`,
              );
            const media = res.json();
            if (job.kind === 'document') return;
            if (media.renditions.length !== 2)
              unexpected.push(`#${start + offset} ${job.format}: ${media.renditions.length} renditions`);
            if ((start + offset) % 7 === 0) {
              checked++;
              const rendition = (await ctx.send('GET', media.renditions[0].content_url)).rawPayload;
              const { segments, trailing } = jpegStructure(rendition);
              if (segments.some((s) => (s.startsWith('APP') && s !== 'APP0') || s === 'COM') || trailing !== 0)
                unexpected.push(`#${start + offset}: rendition carries ${segments}`);
            }
          }),
        );
      }
      const outcomes = new Map<string, number>();
      for (const sample of samples) outcomes.set(sample.outcome, (outcomes.get(sample.outcome) ?? 0) + 1);
      console.log(
        'answers',
        Object.fromEntries(tally),
        'sandbox outcomes',
        Object.fromEntries(outcomes),
        'renditions checked',
        checked,
      );
      expect(unexpected).toEqual([]);
      // The mutants are worth the name: of every format some are accepted and some refused.
      for (const format of Object.keys(PER_FORMAT)) {
        expect(tally.get(`${format} 201`) ?? 0, `${format} accepted`).toBeGreaterThan(0);
        expect(tally.get(`${format} 422`) ?? 0, `${format} refused`).toBeGreaterThan(0);
      }
      expect((await ctx.send('GET', `/v1/properties/${property}`)).statusCode).toBe(200);
    },
  );
});
