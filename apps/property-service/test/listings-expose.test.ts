import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jpeg, webp } from '@platform/uploads/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { formatEuros, formatNumber, renderExpose } from '../src/listings/expose.js';
import type { ListingMediaSnapshot, ListingSnapshot } from '../src/listings/snapshot.js';

const work = mkdtempSync(join(tmpdir(), 'expose-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let files = 0;
function poppler(tool: 'pdftotext' | 'pdfimages', pdf: Buffer): string {
  const file = join(work, `${++files}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync(tool, tool === 'pdftotext' ? [file, '-'] : ['-list', file], { encoding: 'utf8' });
}
/** `WIDTHxHEIGHT` of every image, in page and drawing order. */
const imageSizes = (pdf: Buffer) =>
  poppler('pdfimages', pdf)
    .split('\n')
    .slice(2)
    .filter((line) => line.trim())
    .map((line) => line.trim().split(/\s+/))
    .map((cols) => `${cols[3]}x${cols[4]}`);
/** pdftotext's text with every run of white space made one space, so that wrapped table cells still match. */
const text = async (pdf: Buffer) => poppler('pdftotext', pdf).replace(/\s+/g, ' ');
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

// Distinct sizes, so that pdfimages tells them apart: the cover is 64×48.
const files_ = {
  cover: jpeg(64, 48, 'cover'),
  second: jpeg(30, 40, 'second'),
  third: jpeg(41, 31, 'third'),
  plan: jpeg(50, 70, 'plan'),
  webp: webp(20, 20),
};
const store = new Map(Object.values(files_).map((data) => [sha256(data), data]));
const loadImage = async (hash: string) => store.get(hash) ?? null;

function medium(
  id: string,
  kind: ListingMediaSnapshot['kind'],
  position: number,
  data: Buffer | string,
  content_type = 'image/jpeg',
): ListingMediaSnapshot {
  const hash = typeof data === 'string' ? data : sha256(data);
  return {
    id,
    kind,
    title: null,
    position,
    content_type,
    size: 1,
    sha256: hash,
    width: null,
    height: null,
    thumbnail: null,
    published: kind !== 'document',
  };
}

function snapshot(overrides: Partial<ListingSnapshot['property']> = {}): ListingSnapshot {
  return {
    taken_at: '2026-03-01T09:30:00.000Z',
    property: {
      id: 'prop_1',
      type: 'apartment',
      title: 'Helle Wohnung in Köln-Süd, Maßstab',
      description: 'Ruhige Lage, Südbalkon, Einbauküche. Größe und Übergabe nach Vereinbarung.',
      address: {
        street: 'Bonner Straße 12a',
        house_number: '12a',
        postal_code: '50677',
        city: 'Köln',
        country: 'DE',
        location_precision: 'exact',
      },
      living_area_sqm: 85.5,
      lot_size_sqm: null,
      rooms: 3.5,
      year_built: 1962,
      floor: 2,
      purchase_price_eur: 420_000,
      cold_rent_eur: null,
      service_charges_eur: null,
      available_from: '2026-05-01',
      energy_certificate: {
        type: 'demand',
        final_energy_demand_kwh: 112.4,
        energy_source: 'Fernwärme',
        system_year: 1998,
        efficiency_class: 'D',
        valid_until: '2031-06-30',
        exemption: null,
      },
      commission: {
        buyer_percent: 3.57,
        seller_percent: 3.57,
        note: 'Provision fällig bei Beurkundung.',
        engaged_by: null,
        buyer_is_consumer: true,
        tenant_months: null,
        landlord_months: null,
      },
      ...overrides,
    },
    // Out of position order on purpose; a missing photo, a WebP and a PDF document among them.
    media: [
      medium('m3', 'photo', 3, files_.third),
      medium('m0', 'photo', 0, files_.cover),
      medium('m5', 'floor_plan', 5, files_.plan),
      medium('m1', 'photo', 1, 'f'.repeat(64)),
      medium('m4', 'photo', 4, files_.webp, 'image/webp'),
      medium('m2', 'photo', 2, files_.second),
      medium('m6', 'document', 6, 'e'.repeat(64), 'application/pdf'),
    ],
  };
}

describe('renderExpose', () => {
  it('shows the title, facts, prices, commission, energy certificate and description in German', async () => {
    const t = await text(await renderExpose(snapshot(), loadImage));
    expect(t).toContain('Helle Wohnung in Köln-Süd, Maßstab');
    for (const fact of [
      'Objektart Wohnung',
      'Wohnfläche ca. 85,5 m²',
      'Zimmer 3,5',
      'Etage 2. Obergeschoss',
      'Baujahr 1962',
      'Verfügbar ab 01.05.2026',
    ])
      expect(t).toContain(fact);
    expect(t).not.toContain('Grundstücksfläche');
    expect(t).toContain('Kaufpreis 420.000 €');
    expect(t).not.toContain('Kaltmiete');
    expect(t).toContain('Käuferprovision 3,57 %');
    expect(t).toContain('Verkäuferprovision 3,57 %');
    expect(t).toContain('Provision fällig bei Beurkundung.');
    expect(t).toContain('Energieausweis');
    for (const line of [
      'Bedarfsausweis',
      'Endenergiebedarf 112,4 kWh/(m²·a)',
      'Wesentlicher Energieträger Fernwärme',
      'Baujahr der Heizung 1998',
      'Energieeffizienzklasse D',
      'Gültig bis 30.06.2031',
    ])
      expect(t).toContain(line);
    expect(t).toContain('Größe und Übergabe nach Vereinbarung.');
  });

  it('shows the address at each location precision', async () => {
    const at = async (location_precision: 'exact' | 'street' | 'neighborhood') =>
      text(
        await renderExpose(snapshot({ address: { ...snapshot().property.address, location_precision } }), loadImage),
      );
    expect(await at('exact')).toContain('Bonner Straße 12a, 50677 Köln');
    const street = await at('street');
    expect(street).toContain('Bonner Straße, 50677 Köln');
    expect(street).not.toContain('12a');
    const neighborhood = await at('neighborhood');
    expect(neighborhood).toContain('50677 Köln');
    expect(neighborhood).not.toContain('Bonner');
  });

  it('shows rent and service charges for a rental, and an exemption instead of certificate figures', async () => {
    const t = await text(
      await renderExpose(
        snapshot({
          purchase_price_eur: null,
          cold_rent_eur: 1_250,
          service_charges_eur: 230,
          commission: null,
          energy_certificate: {
            type: null,
            final_energy_demand_kwh: null,
            energy_source: null,
            system_year: null,
            efficiency_class: null,
            valid_until: null,
            exemption: 'heritage_protection',
          },
        }),
        loadImage,
      ),
    );
    expect(t).toContain('Kaltmiete 1.250 € monatlich');
    expect(t).toContain('Nebenkosten 230 € monatlich');
    expect(t).not.toContain('Kaufpreis');
    expect(t).not.toContain('provision');
    expect(t).toContain('Kein Energieausweis erforderlich (Denkmalschutz)');
    expect(t).not.toContain('Effizienzklasse');
  });

  it('embeds the photos in position order (cover first), then the floor plans, skipping missing and unembeddable ones', async () => {
    expect(imageSizes(await renderExpose(snapshot(), loadImage))).toEqual(['64x48', '30x40', '41x31', '50x70']);
    const noPhotos = { ...snapshot(), media: [] };
    expect(imageSizes(await renderExpose(noPhotos, loadImage))).toEqual([]);
  });

  it('renders the same snapshot to the same bytes, and a changed price to other bytes', async () => {
    const first = await renderExpose(snapshot(), loadImage);
    expect(sha256(await renderExpose(snapshot(), loadImage))).toBe(sha256(first));
    expect(sha256(await renderExpose(snapshot({ purchase_price_eur: 419_000 }), loadImage))).not.toBe(sha256(first));
  });

  it('formats numbers the German way without locale data', () => {
    expect([
      formatNumber(0),
      formatNumber(999),
      formatNumber(1000),
      formatNumber(1_234_567),
      formatNumber(85.5, 2),
      formatNumber(3.567, 2),
      formatNumber(2.0, 1),
      formatNumber(-1, 0),
    ]).toEqual(['0', '999', '1.000', '1.234.567', '85,5', '3,57', '2', '-1']);
    expect(formatEuros(420_000)).toBe('420.000 €');
  });
});
