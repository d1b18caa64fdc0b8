// The sandbox as production runs it: scripts/build.mjs's bundle of scripts/sandbox.ts, with the
// packages it leaves outside (native binaries, files loaded next to themselves) resolved from the
// root node_modules. Every task the entry serves runs here once on real input.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, task, type Sandbox } from '@platform/sandbox';
import { jpeg, pdf } from '@platform/uploads/testing';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
let out: string;
let work: string;
let sandbox: Sandbox;

beforeAll(async () => {
  // Inside the repository, so that the bundle's external packages resolve as in dist/.
  mkdirSync(join(ROOT, 'node_modules/.cache'), { recursive: true });
  out = mkdtempSync(join(ROOT, 'node_modules/.cache/sandbox-bundle-'));
  work = mkdtempSync(join(tmpdir(), 'sandbox-bundle-work-'));
  const { buildBundles } = (await import(pathToFileURL(join(ROOT, 'scripts/build.mjs')).href)) as {
    buildBundles: (o: object) => Promise<unknown>;
  };
  await buildBundles({ outdir: out, names: ['sandbox'], sourcemap: false, logLevel: 'error' });
  sandbox = createSandbox({ entry: join(out, 'sandbox.js'), processes: 1, memoryMb: 512, timeoutMs: 60_000 });
}, 120_000);
afterAll(async () => {
  await sandbox?.close();
  rmSync(out, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

const text = (file: string) => execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
const fontsDir =
  join(
    dirname(createRequire(join(ROOT, 'packages/uploads/package.json')).resolve('pdfjs-dist/package.json')),
    'standard_fonts',
  ) + '/';

describe('the bundled sandbox (dist/sandbox.js)', () => {
  it('decodes an image into renditions', async () => {
    writeFileSync(join(work, 'photo.jpg'), jpeg(1600, 1200));
    const decoded = await sandbox.run(
      task<object, { width: number; renditions: { width: number }[] }>('uploads.decode-image'),
      {
        path: join(work, 'photo.jpg'),
        format: 'jpeg',
        maxPixels: 40_000_000,
        renditions: [
          { variant: 'large', longEdge: 1920, quality: 82 },
          { variant: 'thumbnail', longEdge: 640, quality: 80 },
        ],
        outDir: work,
      },
    );
    expect(decoded).toMatchObject({ width: 1600, height: 1200, renditions: [{ width: 1600 }, { width: 640 }] });
  });

  it('inspects a PDF and renders its page', async () => {
    writeFileSync(join(work, 'plan.pdf'), pdf('Grundriss'));
    expect(
      await sandbox.run(task<object, object>('uploads.inspect-pdf'), {
        path: join(work, 'plan.pdf'),
        maxPages: 10,
        maxObjects: 100,
      }),
    ).toEqual({ pages: 1, objects: 5 });
    const rendered = await sandbox.run(task<object, object>('uploads.render-pdf'), {
      path: join(work, 'plan.pdf'),
      maxPages: 10,
      maxObjects: 100,
      maxRenderedPages: 1,
      fontsDir,
      renditions: [{ variant: 'large', longEdge: 1920, quality: 82 }],
      outDir: work,
    });
    expect(rendered).toMatchObject({ pages: 1, renditions: [{ variant: 'large', height: 1920 }] });
  });

  it('renders an exposé, a catalog record, an invoice and an Auskunft with pdfkit', async () => {
    const render = (name: string, data: object, files: Record<string, string> = {}) =>
      sandbox
        .run(task<object, { bytes: number }>(name), { data, files, out: join(work, `${name}.pdf`) })
        .then(() => text(join(work, `${name}.pdf`)));
    const photo = join(work, 'cover.jpg');
    writeFileSync(photo, jpeg(320, 240));
    const listing = {
      taken_at: '2026-03-01T09:30:00.000Z',
      property: {
        id: 'prop_1',
        type: 'apartment',
        title: 'Helle Wohnung in Köln',
        description: null,
        address: {
          street: 'Bonner Straße 12',
          postal_code: '50677',
          city: 'Köln',
          country: 'DE',
          location_precision: 'street',
        },
        living_area_sqm: 85.5,
        lot_size_sqm: null,
        rooms: 3,
        year_built: 1962,
        floor: 2,
        purchase_price_eur: 420_000,
        cold_rent_eur: null,
        service_charges_eur: null,
        available_from: null,
        energy_certificate: null,
        commission: null,
      },
      media: [
        {
          id: 'm1',
          kind: 'photo',
          title: null,
          position: 0,
          content_type: 'image/jpeg',
          size: 1,
          sha256: 'a'.repeat(64),
          width: 320,
          height: 240,
          thumbnail: null,
          published: true,
        },
      ],
    };
    expect(await render('property.render-expose', listing, { ['a'.repeat(64)]: photo })).toContain(
      'Helle Wohnung in Köln',
    );
    expect(
      execFileSync('pdfimages', ['-list', join(work, 'property.render-expose.pdf')], { encoding: 'utf8' }),
    ).toMatch(/320\s+240/);
    const record = {
      taken_at: '2026-01-01T00:00:00.000Z',
      agent: {
        id: 'agt_1',
        name: 'Prüfagent',
        description: 'Liest Verträge.',
        owning_team: 'Recht',
        capabilities: ['review'],
        data_classification: 'internal',
        chargeback_rate: { amount_cents: 125, unit: 'per_request' },
      },
      artifacts: [],
    };
    expect(await render('agent-platform.render-catalog-record', record)).toContain('Prüfagent');
    const party = {
      name: 'Muster Immobilien GmbH',
      street: 'Friedrichstraße 10',
      postal_code: '10117',
      city: 'Berlin',
      country: 'DE',
      vat_id: 'DE123456789',
    };
    const invoice = {
      number: '2026-000001',
      issue_date: '2026-03-02',
      service_date: '2026-03-01',
      due_date: '2026-03-16',
      notes: [],
      currency: 'EUR',
      issuer: party,
      recipient: { ...party, name: 'Erika Käufer', vat_id: null },
      buyer_reference: '2026-000001',
      payment: { iban: 'DE89370400440532013000' },
      lines: [
        {
          position: 1,
          description: 'Maklerprovision',
          quantity: '1',
          unit_code: 'C62',
          unit_price_cents: '1000000',
          net_cents: 1_000_000,
        },
      ],
      vat_category: 'S',
      vat_rate_bp: 1900,
      net_cents: 1_000_000,
      vat_cents: 190_000,
      gross_cents: 1_190_000,
    };
    expect(await render('billing.render-invoice', invoice)).toContain('Rechnung 2026-000001');
    expect(readFileSync(join(work, 'billing.render-invoice.pdf')).subarray(0, 5).toString()).toBe('%PDF-');
    const t = '2026-03-01T09:30:00.000Z';
    const auskunft = {
      interessent_id: 'int_1',
      erstellt_am: t,
      stammdaten: {
        vorname: 'Erika',
        nachname: 'Muster',
        email: 'erika@example.de',
        telefon: null,
        angelegt_am: t,
        aktualisiert_am: t,
        letzte_aktivitaet_am: t,
      },
      einwilligungen: [],
      suchprofil: null,
      anfragen: [],
      termine: [],
      treffer: [
        {
          immobilie_id: 'prop_1',
          punkte: 80,
          angebot: 'kauf:420000',
          anlass: 'preissenkung',
          status: 'angekuendigt',
          zeitpunkt: t,
        },
      ],
      treffer_tageszaehler: [{ tag: '2026-03-01', angekuendigt: 1 }],
      ereignisse: [],
      aufbewahrung_bis: '2026-09-01',
      loeschung_geplant_am: '2026-09-02',
      eingeschraenkt_seit: null,
      widerspruch_seit: null,
    };
    expect(await render('property.render-auskunft', auskunft)).toContain('Auskunft über Ihre gespeicherten Daten');
  });
});
