import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { zipSync } from 'fflate';
import { XMLParser } from 'fast-xml-parser';
import {
  PORTAL_XML_NAME,
  portalFiles,
  portalPackage,
  portalXml,
  type PortalPackageInput,
} from '../src/portals/package.js';
import { openImmoSchemaErrors } from './openimmo-schema.js';
import {
  CONTACT,
  GENERATED_AT,
  blobStore,
  flat,
  internPaths,
  item,
  jpeg,
  medium,
  pathProblems,
  plot,
  sha256,
  snapshot,
  toFile,
  villa,
  writeTemp,
  zipEntry,
  zipNames,
  zipTest,
} from './portal-package-fixtures.js';

type Node = Record<string, unknown>;
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  isArray: (name) => name === 'immobilie' || name === 'anhang',
});
const immobilien = (xml: string) =>
  ((parser.parse(xml) as { openimmo: { anbieter: Node } }).openimmo.anbieter.immobilie ?? []) as Node[];
const uebertragung = (xml: string) => (parser.parse(xml) as { openimmo: { uebertragung: Node } }).openimmo.uebertragung;

let images: Record<'cover' | 'kitchen' | 'plan' | 'shared' | 'villaOnly' | 'original' | 'pdf', Buffer>;
let input: (umfang: 'VOLL' | 'TEIL', villaAction?: 'CHANGE' | 'DELETE') => PortalPackageInput & { reads: string[] };

beforeAll(async () => {
  images = {
    cover: await jpeg([200, 30, 30]),
    kitchen: await jpeg([30, 200, 30]),
    plan: await jpeg([240, 240, 240], 96),
    shared: await jpeg([30, 30, 200]),
    villaOnly: await jpeg([120, 90, 10]),
    original: await jpeg([5, 5, 5]),
    pdf: Buffer.from('%PDF-1.4 not published'),
  };
  const flatMedia = [
    medium('f_plan', 'floor_plan', 2, images.plan),
    medium('f_cover', 'photo', 0, images.cover),
    medium('f_kitchen', 'photo', 1, images.kitchen),
    medium('f_shared', 'photo', 3, images.shared),
    medium('f_doc', 'document', 4, images.pdf),
    medium('f_original', 'photo', 5, images.original, { published: false }),
  ];
  const villaMedia = [medium('v_shared', 'photo', 0, images.shared), medium('v_own', 'photo', 1, images.villaOnly)];
  input = (umfang, villaAction = 'CHANGE') => {
    const store = blobStore(Object.values(images));
    return {
      anbieternr: 'ANB-42',
      firma: 'Muster & Söhne <Immobilien>',
      contact: CONTACT,
      generatedAt: GENERATED_AT,
      umfang,
      items: [
        item('OBJ-1', snapshot(flat, flatMedia)),
        item('OBJ-2', snapshot(villa, villaMedia), villaAction),
        item('OBJ-3', snapshot(plot)),
      ],
      readBlob: store.readBlob,
      reads: store.reads,
    };
  };
});

const path = (bytes: Buffer) => `bilder/${sha256(bytes)}.jpg`;

describe('portal package: a full transfer (VOLL)', () => {
  it('is a ZIP unzip reads: openimmo.xml first, then each published image once, every CRC right', async () => {
    const full = input('VOLL');
    const zip = await toFile(portalPackage(full));
    expect(zipTest(zip).status).toBe(0);
    const names = zipNames(zip);
    expect(names[0]).toBe(PORTAL_XML_NAME);
    // Position order of the flat, then the villa's own photo: the shared one is already in.
    expect(names.slice(1)).toEqual([
      path(images.cover),
      path(images.kitchen),
      path(images.plan),
      path(images.shared),
      path(images.villaOnly),
    ]);
    expect(new Set(names).size).toBe(names.length);
    expect(names).not.toContain(path(images.original));
    expect(names.some((n) => n.endsWith('.pdf'))).toBe(false);
    // One image in flight at a time, each read once, never the document or the tenant's original.
    expect(full.reads).toEqual(names.slice(1).map((n) => n.slice('bilder/'.length, -'.jpg'.length)));
    for (const name of names.slice(1)) expect(sha256(zipEntry(zip, name))).toBe(name.slice(7, 71));
  });

  it('holds exactly portalXml, valid against the official XSD, every INTERN path in the ZIP with its bytes', async () => {
    const full = input('VOLL');
    const zip = await toFile(portalPackage(full));
    const xml = zipEntry(zip, PORTAL_XML_NAME).toString('utf8');
    expect(xml).toBe(portalXml(full));
    expect(openImmoSchemaErrors(xml)).toEqual([]);
    expect(uebertragung(xml)).toMatchObject({ '@_art': 'OFFLINE', '@_umfang': 'VOLL', '@_modus': 'NEW' });
    expect(pathProblems(zip, xml)).toEqual([]);
    expect(new Set(internPaths(xml))).toEqual(new Set(portalFiles(full.items).map((f) => f.path)));
    expect(xml).not.toContain('location="EXTERN"');
    const [f, v, p] = immobilien(xml);
    expect((f.verwaltung_techn as Node).objektnr_extern).toBe('OBJ-1');
    expect((f.verwaltung_techn as Node).openimmo_obid).toBe('OBJ-1');
    expect(((f.anhaenge as Node).anhang as Node[]).map((a) => [a['@_gruppe'], (a.daten as Node).pfad])).toEqual([
      ['TITELBILD', path(images.cover)],
      ['BILD', path(images.kitchen)],
      ['GRUNDRISS', path(images.plan)],
      ['BILD', path(images.shared)],
    ]);
    expect(((v.anhaenge as Node).anhang as Node[]).map((a) => (a.daten as Node).pfad)).toEqual([
      path(images.shared),
      path(images.villaOnly),
    ]);
    expect(p.anhaenge).toBeUndefined();
  });

  it('is a fresh, identical stream each call: a retry re-reads the blobs', async () => {
    const full = input('VOLL');
    const first = readFileSync(await toFile(portalPackage(full)));
    const second = readFileSync(await toFile(portalPackage(full)));
    expect(second.equals(first)).toBe(true);
    expect(full.reads).toHaveLength(10);
  });
});

describe('portal package: a partial transfer (TEIL) with a DELETE', () => {
  it('is valid against the XSD; the DELETE item holds only what the schema requires and no image', async () => {
    const teil = input('TEIL', 'DELETE');
    const zip = await toFile(portalPackage(teil));
    expect(zipTest(zip).status).toBe(0);
    const xml = zipEntry(zip, PORTAL_XML_NAME).toString('utf8');
    expect(openImmoSchemaErrors(xml)).toEqual([]);
    expect(uebertragung(xml)).toMatchObject({ '@_art': 'OFFLINE', '@_umfang': 'TEIL', '@_modus': 'CHANGE' });
    expect(pathProblems(zip, xml)).toEqual([]);
    const deleted = immobilien(xml)[1];
    expect(Object.keys(deleted)).toEqual(['objektkategorie', 'geo', 'kontaktperson', 'verwaltung_techn']);
    expect(deleted.geo).toEqual({ plz: '14467', ort: 'Potsdam' });
    expect(deleted.verwaltung_techn).toEqual({
      objektnr_extern: 'OBJ-2',
      aktion: { '@_aktionart': 'DELETE' },
      openimmo_obid: 'OBJ-2',
      stand_vom: '2025-06-15',
    });
    expect(immobilien(xml)[0].verwaltung_techn).toMatchObject({ aktion: { '@_aktionart': 'CHANGE' } });
    // The shared photo stays (the flat shows it); the villa's own photo is not sent.
    const names = zipNames(zip);
    expect(names).toContain(path(images.shared));
    expect(names).not.toContain(path(images.villaOnly));
    expect(teil.reads).not.toContain(sha256(images.villaOnly));
  });

  it('a transfer of deletions only: modus DELETE, the XML alone in the ZIP, valid', async () => {
    const base = input('TEIL');
    const only = { ...base, items: base.items.map((i) => ({ ...i, action: 'DELETE' as const })) };
    const zip = await toFile(portalPackage(only));
    expect(zipNames(zip)).toEqual([PORTAL_XML_NAME]);
    const xml = zipEntry(zip, PORTAL_XML_NAME).toString('utf8');
    expect(uebertragung(xml)).toMatchObject({ '@_umfang': 'TEIL', '@_modus': 'DELETE' });
    expect(openImmoSchemaErrors(xml)).toEqual([]);
    expect(xml).not.toContain('<anhaenge>');
    expect(xml).not.toContain('Feldweg'); // a DELETE item names no street
    expect(base.reads).toEqual([]);
  });
});

describe('portal package: the checks fail on a corrupted copy', () => {
  it('a renamed anhang path is found missing from the ZIP', async () => {
    const full = input('VOLL');
    const zip = await toFile(portalPackage(full));
    const xml = zipEntry(zip, PORTAL_XML_NAME).toString('utf8');
    const renamed = xml.replace(path(images.kitchen), `bilder/${sha256(images.original)}.jpg`);
    expect(pathProblems(zip, renamed)).toEqual([`bilder/${sha256(images.original)}.jpg: not in the ZIP`]);
  });

  it('an image left out of the ZIP, or other bytes under its name, are found', () => {
    const xml = portalXml(input('VOLL'));
    const entries = {
      [PORTAL_XML_NAME]: Buffer.from(xml),
      [path(images.cover)]: images.cover,
      [path(images.kitchen)]: images.original,
      [path(images.plan)]: images.plan,
      [path(images.shared)]: images.shared,
    };
    const zip = writeTemp(zipSync(entries));
    expect(pathProblems(zip, xml).sort()).toEqual(
      [`${path(images.kitchen)}: other bytes`, `${path(images.villaOnly)}: not in the ZIP`].sort(),
    );
  });

  it('a DELETE item without geo or kontaktperson fails the XSD', () => {
    const xml = portalXml(input('TEIL', 'DELETE'));
    const deleted = /<immobilie>(?:(?!<immobilie>)[\s\S])*?DELETE[\s\S]*?<\/immobilie>/.exec(xml)![0];
    for (const element of ['geo', 'kontaktperson', 'objektkategorie']) {
      const broken = xml.replace(deleted, deleted.replace(new RegExp(`<${element}>[\\s\\S]*?</${element}>`), ''));
      expect(broken).not.toBe(xml);
      expect(openImmoSchemaErrors(broken)).not.toEqual([]);
    }
  });

  it('a flipped byte in an image fails unzip -t', async () => {
    const bytes = readFileSync(await toFile(portalPackage(input('VOLL'))));
    const at = bytes.indexOf(images.kitchen.subarray(200, 232));
    expect(at).toBeGreaterThan(0); // stored as is: the JPEG's bytes are in the archive
    bytes[at] ^= 0xff;
    const result = zipTest(writeTemp(bytes));
    expect(result.status).not.toBe(0);
    expect(result.output).toMatch(/bad CRC/i);
  });
});

describe('portal package: refusals', () => {
  it('the stream fails when a blob does not match its address, or cannot be read', async () => {
    const full = input('VOLL');
    const swapped: PortalPackageInput = { ...full, readBlob: async () => Readable.from([images.original]) };
    await expect(toFile(portalPackage(swapped))).rejects.toThrow(/do not match their address/);
    const gone: PortalPackageInput = { ...full, readBlob: () => Promise.reject(new Error('storage down')) };
    await expect(toFile(portalPackage(gone))).rejects.toThrow('storage down');
  });

  it('reads one image at a time, and nothing before the stream is read', async () => {
    const full = input('VOLL');
    const log: string[] = [];
    const stream = portalPackage({
      ...full,
      readBlob: async (address) => {
        log.push(`open ${address.slice(0, 8)}`);
        const source = (await full.readBlob(address)) as Readable;
        source.on('end', () => log.push(`end ${address.slice(0, 8)}`));
        return source;
      },
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(log).toEqual([]);
    await toFile(stream);
    expect(log).toHaveLength(10);
    for (let i = 0; i < log.length; i += 2) {
      expect(log[i]).toMatch(/^open /);
      expect(log[i + 1]).toBe(log[i].replace('open', 'end'));
    }
  });

  it('takes a blob given as a Buffer', async () => {
    const full = input('VOLL');
    const buffers = new Map(Object.values(images).map((b) => [sha256(b), b]));
    const zip = await toFile(portalPackage({ ...full, readBlob: async (a) => buffers.get(a)! }));
    expect(zipTest(zip).status).toBe(0);
    expect(pathProblems(zip, zipEntry(zip, PORTAL_XML_NAME).toString('utf8'))).toEqual([]);
  });

  it('never makes a path of a medium whose address is not a sha256, nor of a type a portal does not take', () => {
    const full = input('VOLL');
    const withMedium = (over: Parameters<typeof medium>[4]) => ({
      ...full,
      items: [item('OBJ-9', snapshot(flat, [medium('x', 'photo', 0, images.cover, over)]))],
    });
    expect(() => portalXml(withMedium({ sha256: '../../etc/passwd' }))).toThrow(TypeError);
    expect(() => portalPackage(withMedium({ sha256: 'A'.repeat(64) }))).toThrow(TypeError);
    expect(() => portalFiles(withMedium({ content_type: 'image/tiff' }).items)).toThrow(/image type/);
    expect(portalFiles(withMedium({ content_type: 'image/png' }).items)).toEqual([
      { path: `bilder/${sha256(images.cover)}.png`, sha256: sha256(images.cover) },
    ]);
  });

  it('refuses a generatedAt the ZIP cannot date, before any stream', () => {
    expect(() => portalPackage({ ...input('VOLL'), generatedAt: '1970-01-01T00:00:00Z' })).toThrow();
  });
});
