import {
  contentWidth,
  ensureSpace,
  factsTable,
  fitImage,
  heading,
  imageGrid,
  MUTED,
  paragraph,
  renderPdf,
  renderTask,
  type FileReader,
  type PdfDocument,
} from '@platform/documents/pdf';
import { formatPublicAddress, publicAddress } from './address.js';
import {
  isPublished,
  type ListingMediaSnapshot,
  type ListingPropertySnapshot,
  type ListingSnapshot,
} from './snapshot.js';

const COVER_HEIGHT = 300;
const GRID_HEIGHT = 180;
const PLAN_HEIGHT = 360;

type Row = readonly [label: string, value: string | null];

/** The exposé's renderer in the sandbox (`./sandbox.ts` serves it). */
export const RENDER_EXPOSE = renderTask<ListingSnapshot>('property.render-expose');

/** Which stored file each image of the exposé is: the cover and the floor plans at `large`, the other photos as thumbnails. */
export function exposeImages(snapshot: ListingSnapshot) {
  const media = snapshot.media.filter(isPublished).sort((a, b) => a.position - b.position);
  const photos = media.filter((m) => m.kind === 'photo');
  const thumbnail = (m: ListingMediaSnapshot) => m.thumbnail?.sha256 ?? m.sha256;
  return {
    cover: photos[0]?.sha256 ?? null,
    photos: photos.slice(1).map(thumbnail),
    floorPlans: media.filter((m) => m.kind === 'floor_plan').map((m) => m.sha256),
  };
}

/** Every stored file the exposé draws (the renderer is given these). */
export function exposeFiles(snapshot: ListingSnapshot): string[] {
  const { cover, photos, floorPlans } = exposeImages(snapshot);
  return [...(cover ? [cover] : []), ...photos, ...floorPlans];
}

/**
 * The PDF exposé of a listing (German): title, address at the property's location precision,
 * cover photo, facts, prices, commission, energy certificate, description, the other photos
 * and the floor plans, drawn from their renditions, each read when it is drawn. Deterministic:
 * dated by the snapshot, numbers formatted by hand. Runs in the sandbox.
 */
export async function renderExpose(snapshot: ListingSnapshot, read: FileReader): Promise<Buffer> {
  const { property } = snapshot;
  const images = exposeImages(snapshot);
  const sources = (shas: readonly string[]) => shas.map((sha256) => () => read(sha256));

  return renderPdf(
    { title: property.title, subject: 'Exposé', language: 'de-DE', createdAt: new Date(snapshot.taken_at) },
    async (doc) => {
      heading(doc, property.title, { level: 1 });
      paragraph(doc, formatPublicAddress(publicAddress(property.address)), { size: 11, color: MUTED });
      const cover = images.cover ? await read(images.cover) : null;
      if (cover) drawCover(doc, cover);

      heading(doc, 'Objektdaten');
      factsTable(doc, facts(property));
      heading(doc, 'Preise');
      const prices = priceRows(property);
      if (prices.length > 0) factsTable(doc, prices);
      else paragraph(doc, 'Preis auf Anfrage');
      const commission = commissionRows(property);
      if (commission.some(([, value]) => value !== null)) {
        heading(doc, 'Provision');
        factsTable(doc, commission);
      }
      energyBlock(doc, property);
      if (property.description) {
        heading(doc, 'Beschreibung');
        paragraph(doc, property.description);
      }
      if (images.photos.length > 0) {
        heading(doc, 'Weitere Bilder', { keepWith: GRID_HEIGHT });
        await imageGrid(doc, sources(images.photos), { columns: 2, height: GRID_HEIGHT });
      }
      if (images.floorPlans.length > 0) {
        heading(doc, 'Grundrisse', { keepWith: PLAN_HEIGHT });
        await imageGrid(doc, sources(images.floorPlans), { columns: 1, height: PLAN_HEIGHT });
      }
    },
  );
}

function drawCover(doc: PdfDocument, image: Buffer): void {
  doc.moveDown(0.5);
  ensureSpace(doc, COVER_HEIGHT);
  const top = doc.y;
  fitImage(doc, image, { x: doc.page.margins.left, y: top, width: contentWidth(doc), height: COVER_HEIGHT });
  doc.x = doc.page.margins.left;
  doc.y = top + COVER_HEIGHT;
}

const PROPERTY_TYPE_LABELS: Record<ListingPropertySnapshot['type'], string> = {
  apartment: 'Wohnung',
  house: 'Haus',
  land: 'Grundstück',
  commercial: 'Gewerbeobjekt',
  parking: 'Stellplatz',
};

function facts(p: ListingPropertySnapshot): Row[] {
  return [
    ['Objektart', PROPERTY_TYPE_LABELS[p.type]],
    ['Wohnfläche', p.living_area_sqm === null ? null : `ca. ${formatNumber(p.living_area_sqm, 2)} m²`],
    ['Grundstücksfläche', p.lot_size_sqm === null ? null : `ca. ${formatNumber(p.lot_size_sqm, 2)} m²`],
    ['Zimmer', p.rooms === null ? null : formatNumber(p.rooms, 1)],
    ['Etage', p.floor === null ? null : floorLabel(p.floor)],
    ['Baujahr', p.year_built === null ? null : String(p.year_built)],
    ['Verfügbar ab', p.available_from === null ? null : formatDate(p.available_from)],
  ];
}

function priceRows(p: ListingPropertySnapshot): Row[] {
  const rows: Row[] = [
    ['Kaufpreis', p.purchase_price_eur === null ? null : formatEuros(p.purchase_price_eur)],
    ['Kaltmiete', p.cold_rent_eur === null ? null : `${formatEuros(p.cold_rent_eur)} monatlich`],
    ['Nebenkosten', p.service_charges_eur === null ? null : `${formatEuros(p.service_charges_eur)} monatlich`],
  ];
  return rows.filter(([, value]) => value !== null);
}

function commissionRows(p: ListingPropertySnapshot): Row[] {
  const c = p.commission;
  return [
    ['Käuferprovision', c?.buyer_percent == null ? null : `${formatNumber(c.buyer_percent, 2)} %`],
    ['Verkäuferprovision', c?.seller_percent == null ? null : `${formatNumber(c.seller_percent, 2)} %`],
    ['Hinweis', c?.note ?? null],
  ];
}

const CERTIFICATE_TYPES = { consumption: 'Verbrauchsausweis', demand: 'Bedarfsausweis' } as const;
const EXEMPTIONS = { heritage_protection: 'Denkmalschutz', small_building: 'kleines Gebäude' } as const;

/** The energy-certificate block (GEG §87). Land and parking spaces need none, so they show nothing when there is none. */
function energyBlock(doc: PdfDocument, p: ListingPropertySnapshot): void {
  const e = p.energy_certificate;
  if (!e && (p.type === 'land' || p.type === 'parking')) return;
  heading(doc, 'Energieausweis');
  if (e?.exemption) return paragraph(doc, `Kein Energieausweis erforderlich (${EXEMPTIONS[e.exemption]})`);
  if (!e) return paragraph(doc, 'Keine Angaben zum Energieausweis');
  const valueLabel = e.type === 'consumption' ? 'Endenergieverbrauch' : 'Endenergiebedarf';
  factsTable(doc, [
    ['Art des Energieausweises', e.type === null ? null : CERTIFICATE_TYPES[e.type]],
    [
      valueLabel,
      e.final_energy_demand_kwh === null ? null : `${formatNumber(e.final_energy_demand_kwh, 1)} kWh/(m²·a)`,
    ],
    ['Wesentlicher Energieträger', e.energy_source],
    ['Baujahr der Heizung', e.system_year === null ? null : String(e.system_year)],
    ['Energieeffizienzklasse', e.efficiency_class],
    ['Gültig bis', e.valid_until === null ? null : formatDate(e.valid_until)],
  ]);
}

function floorLabel(floor: number): string {
  if (floor === 0) return 'Erdgeschoss';
  return floor > 0 ? `${floor}. Obergeschoss` : `${-floor}. Untergeschoss`;
}

/**
 * German number format, independent of the runtime's locale data: `.` groups thousands, `,`
 * separates at most `fractionDigits` decimals, trailing zeros dropped (420000 → `420.000`,
 * 85.5 → `85,5`).
 */
export function formatNumber(value: number, fractionDigits = 0): string {
  const [whole, fraction = ''] = Math.abs(value).toFixed(fractionDigits).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  const decimals = fraction.replace(/0+$/, '');
  const sign = value < 0 && /[1-9]/.test(whole + decimals) ? '-' : '';
  return `${sign}${grouped}${decimals ? `,${decimals}` : ''}`;
}

export function formatEuros(euros: number): string {
  return `${formatNumber(euros)} €`;
}

/** `2026-04-01` → `01.04.2026` (the date as stored, no time zone involved). */
function formatDate(date: string): string {
  const [year, month, day] = date.split('-');
  return `${day}.${month}.${year}`;
}
