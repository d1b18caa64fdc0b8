import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, withWorkspace } from '@platform/sandbox';
import { FONTS, paragraph, renderPdf } from '../src/pdf.js';
import { FACTURX_NAMESPACE, attachFacturX, isPdfA } from '../src/pdfa.js';
import { PdfFile, PdfRef, type PdfDict, type PdfString } from './pdf-objects.js';
import { RENDER_PDFA_INVOICE, invoiceXml, renderPdfAInvoice, type TestInvoice } from './fixtures/pdfa-invoice.js';

// No PDF/A validator runs here: veraPDF (Java) is neither a Debian nor an npm package, and nothing
// else on either checks PDF/A-3. These tests check what such a validator would look at, with
// poppler (Debian poppler-utils), xmllint (libxml2-utils) and a reading of the file's objects.

const work = mkdtempSync(join(tmpdir(), 'pdfa-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let files = 0;
function save(pdf: Buffer): string {
  const file = join(work, `${++files}.pdf`);
  writeFileSync(file, pdf);
  return file;
}

const run = (tool: string, args: string[], input?: string) =>
  execFileSync(tool, args, { encoding: 'utf8', ...(input === undefined ? {} : { input }) });

const INVOICE: TestInvoice = {
  number: 'RE-2025-0042',
  issuer: 'Müller & Söhne <Immobilien> GmbH',
  issueDate: '2025-03-01',
  lines: 60, // two pages
};

/** The embedded files `pdfdetach -list` names. */
function attachments(file: string): string[] {
  return run('pdfdetach', ['-list', file])
    .split('\n')
    .slice(1)
    .filter((line) => line.trim())
    .map((line) => line.replace(/^\d+: /, ''));
}

/** `pdffonts`' rows: name, type, whether embedded. */
function fonts(file: string): Array<{ name: string; type: string; embedded: string }> {
  return run('pdffonts', [file])
    .split('\n')
    .slice(2)
    .filter((line) => line.trim())
    .map((line) => {
      const match = /^(\S+)\s+(.+?)\s+(\S+)\s+(yes|no)\s+(yes|no)\s+(yes|no)\s+\d+\s+\d+$/.exec(line);
      if (!match) throw new Error(`unexpected pdffonts line ${line}`);
      return { name: match[1], type: match[2], embedded: match[4] };
    });
}

/** One XMP property's text, by namespace and local name (xmllint fails on a packet that is not well-formed XML). */
function xmp(packet: string, namespace: string, name: string): string {
  const value = run(
    'xmllint',
    ['--xpath', `string(//*[local-name()='${name}' and namespace-uri()='${namespace}'])`, '-'],
    packet,
  );
  return value.replace(/\n$/, '');
}

const NS = {
  pdfaid: 'http://www.aiim.org/pdfa/ns/id/',
  dc: 'http://purl.org/dc/elements/1.1/',
  xmp: 'http://ns.adobe.com/xap/1.0/',
  pdf: 'http://ns.adobe.com/pdf/1.3/',
  pdfaSchema: 'http://www.aiim.org/pdfa/ns/schema#',
  fx: FACTURX_NAMESPACE,
};

/** The ICC's sRGB2014.icc, which pdfkit ships and embeds (its licence: src/pdfa.ts). */
const SRGB2014_SHA256 = '384b832de3412066743b52a75ee906b6fb9fb8d9e09e936fc2c43223815c6e0a';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

describe('PDF/A-3b with a Factur-X invoice', () => {
  const xml = invoiceXml(INVOICE);
  let pdf: Buffer;
  let file: string;
  let reader: PdfFile;
  beforeAll(async () => {
    pdf = await renderPdfAInvoice(INVOICE);
    file = save(pdf);
    reader = new PdfFile(pdf);
  });

  it('embeds factur-x.xml byte for byte (pdfdetach)', () => {
    expect(attachments(file)).toEqual(['factur-x.xml']);
    const out = join(work, 'factur-x.xml');
    run('pdfdetach', ['-save', '1', '-o', out, file]);
    expect(readFileSync(out).equals(Buffer.from(xml, 'utf8'))).toBe(true);
  });

  it('embeds every font (pdffonts): Liberation Sans, Sans Bold and Mono, no standard font', () => {
    const rows = fonts(file);
    expect(rows.map((row) => row.name.replace(/^[A-Z]{6}\+/, '')).sort()).toEqual([
      'LiberationMono',
      'LiberationSans',
      'LiberationSans-Bold',
    ]);
    for (const row of rows) expect(row).toMatchObject({ type: 'CID TrueType', embedded: 'yes' });
  });

  it('keeps the text extractable: German letters and € through the fonts ToUnicode maps (pdftotext)', () => {
    const text = run('pdftotext', [file, '-']);
    expect(text).toContain('Müller & Söhne <Immobilien> GmbH · Hauptstraße 1');
    expect(text).toContain('USt-IdNr. des Empfängers');
    expect(text).toContain('Vermittlungsprovision Objekt Nr. 60, Größe 120 m²');
    expect(text).toContain('60,50 €');
    expect(text).toContain('sha256 0123456789abcdef');
  });

  it('declares PDF/A-3b and Factur-X EN 16931 in well-formed XMP (pdfinfo -meta)', () => {
    const packet = run('pdfinfo', ['-meta', file]);
    expect(xmp(packet, NS.pdfaid, 'part')).toBe('3');
    expect(xmp(packet, NS.pdfaid, 'conformance')).toBe('B');
    expect(xmp(packet, NS.fx, 'DocumentType')).toBe('INVOICE');
    expect(xmp(packet, NS.fx, 'DocumentFileName')).toBe('factur-x.xml');
    expect(xmp(packet, NS.fx, 'Version')).toBe('1.0');
    expect(xmp(packet, NS.fx, 'ConformanceLevel')).toBe('EN 16931');
    // The fx schema is declared as a PDF/A extension schema, with each of its four properties.
    expect(xmp(packet, NS.pdfaSchema, 'namespaceURI')).toBe(FACTURX_NAMESPACE);
    expect(xmp(packet, NS.pdfaSchema, 'prefix')).toBe('fx');
    const properties = run(
      'xmllint',
      ['--xpath', `//*[local-name()='name' and namespace-uri()='http://www.aiim.org/pdfa/ns/property#']/text()`, '-'],
      packet,
    );
    expect(properties.split('\n').filter(Boolean).sort()).toEqual([
      'ConformanceLevel',
      'DocumentFileName',
      'DocumentType',
      'Version',
    ]);
  });

  it('matches every Info entry in the XMP, with the issuer name escaped (PDF/A wants them equal)', () => {
    const packet = run('pdfinfo', ['-meta', file]);
    const info = reader.info();
    expect(reader.text(info.get('Title'))).toBe('Rechnung RE-2025-0042');
    expect(reader.text(info.get('Author'))).toBe(INVOICE.issuer);
    expect(xmp(packet, NS.dc, 'title')).toBe(reader.text(info.get('Title')));
    expect(xmp(packet, NS.dc, 'creator')).toBe(INVOICE.issuer);
    expect(xmp(packet, NS.dc, 'description')).toBe(reader.text(info.get('Subject')));
    expect(xmp(packet, NS.xmp, 'CreatorTool')).toBe(reader.text(info.get('Creator')));
    expect(xmp(packet, NS.pdf, 'Producer')).toBe(reader.text(info.get('Producer')));
    expect(reader.text(info.get('CreationDate'))).toBe('D:20250301000000Z');
    expect(reader.text(info.get('ModDate'))).toBe('D:20250301000000Z');
    expect(xmp(packet, NS.xmp, 'CreateDate')).toBe('2025-03-01T00:00:00Z');
    expect(xmp(packet, NS.xmp, 'ModifyDate')).toBe('2025-03-01T00:00:00Z');
  });

  it('associates the XML with the document: catalog /AF, /AFRelationship /Alternative, text/xml, ModDate', () => {
    const catalog = reader.catalog();
    const af = reader.array(catalog.get('AF'));
    expect(af).toHaveLength(1);
    const filespecRef = af[0];
    expect(filespecRef).toBeInstanceOf(PdfRef);
    const filespec = reader.dict(filespecRef);
    expect(reader.name(filespec.get('Type'))).toBe('Filespec');
    expect(reader.name(filespec.get('AFRelationship'))).toBe('Alternative');
    expect(reader.text(filespec.get('F'))).toBe('factur-x.xml');
    expect(reader.text(filespec.get('UF'))).toBe('factur-x.xml');
    expect(reader.text(filespec.get('Desc'))).toBeTruthy();

    const embedded = reader.stream(reader.dict(filespec.get('EF')).get('F'));
    expect(reader.name(embedded.dict.get('Type'))).toBe('EmbeddedFile');
    expect(reader.name(embedded.dict.get('Subtype'))).toBe('text/xml');
    const params = reader.dict(embedded.dict.get('Params'));
    expect(reader.text(params.get('ModDate'))).toBe('D:20250301000000Z');
    expect(params.get('Size')).toBe(Buffer.byteLength(xml));
    expect(embedded.data.toString('utf8')).toBe(xml);

    // The same file specification is in the EmbeddedFiles name tree, which viewers list.
    const names = reader.array(reader.dict(reader.dict(catalog.get('Names')).get('EmbeddedFiles')).get('Names'));
    expect(names).toHaveLength(2);
    expect((names[0] as PdfString).text()).toBe('factur-x.xml');
    expect(names[1]).toEqual(filespecRef);
  });

  it('has an sRGB output intent with the ICC profile embedded', () => {
    const intents = reader.array(reader.catalog().get('OutputIntents'));
    expect(intents).toHaveLength(1);
    const intent = reader.dict(intents[0]);
    expect(reader.name(intent.get('Type'))).toBe('OutputIntent');
    expect(reader.name(intent.get('S'))).toBe('GTS_PDFA1');
    expect(reader.text(intent.get('OutputConditionIdentifier'))).toBe('sRGB IEC61966-2.1');
    const profile = reader.stream(intent.get('DestOutputProfile'));
    expect(profile.dict.get('N')).toBe(3);
    expect(profile.data.toString('latin1', 36, 40)).toBe('acsp'); // an ICC profile's signature
    expect(profile.data.toString('latin1', 12, 20)).toBe('mntrRGB '); // a display profile of RGB
    expect(sha256(profile.data)).toBe(SRGB2014_SHA256);
  });

  it('is PDF 1.7 with a binary comment, a file id and an unfiltered XMP stream in the catalog', () => {
    expect(reader.version).toBe('1.7');
    expect(pdf.toString('latin1', 0, 10)).toBe('%PDF-1.7\n%'); // then a comment of four bytes > 127
    expect([...pdf.subarray(10, 14)].every((byte) => byte > 127)).toBe(true);
    const id = reader.array(reader.trailer.get('ID'));
    expect(id).toHaveLength(2);
    expect(reader.trailer.has('Encrypt')).toBe(false);
    const metadata = reader.stream(reader.catalog().get('Metadata'));
    expect(reader.name(metadata.dict.get('Type'))).toBe('Metadata');
    expect(reader.name(metadata.dict.get('Subtype'))).toBe('XML');
    expect(metadata.dict.has('Filter')).toBe(false);
    expect(metadata.data.toString('utf8')).toMatch(/^<\?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"\?>/);
  });

  it('embeds every font program that a page uses (each font object read, not only pdffonts)', () => {
    const fontDicts: PdfDict[] = [];
    for (const num of reader.objectNumbers()) {
      const { value } = reader.object(num);
      if (
        value instanceof Map &&
        reader.name(value.get('Type')) === 'Font' &&
        reader.name(value.get('Subtype')) === 'Type0'
      )
        fontDicts.push(value);
    }
    expect(fontDicts).toHaveLength(3);
    for (const font of fontDicts) {
      expect(reader.name(font.get('Encoding'))).toBe('Identity-H');
      expect(font.has('ToUnicode')).toBe(true);
      const [descendant] = reader.array(font.get('DescendantFonts'));
      const cidFont = reader.dict(descendant);
      expect(reader.name(cidFont.get('Subtype'))).toBe('CIDFontType2');
      expect(reader.name(cidFont.get('CIDToGIDMap'))).toBe('Identity');
      const descriptor = reader.dict(cidFont.get('FontDescriptor'));
      expect(reader.stream(descriptor.get('FontFile2')).data.length).toBeGreaterThan(1000);
    }
  });

  it('gives the same bytes for the same input, other bytes and dates for another issue date', async () => {
    expect((await renderPdfAInvoice(INVOICE)).equals(pdf)).toBe(true);
    const later = await renderPdfAInvoice({ ...INVOICE, issueDate: '2025-03-02' });
    expect(later.equals(pdf)).toBe(false);
    const params = (pdfBytes: Buffer) => {
      const r = new PdfFile(pdfBytes);
      const filespec = r.dict(r.array(r.catalog().get('AF'))[0]);
      return r.text(r.dict(r.stream(r.dict(filespec.get('EF')).get('F')).dict.get('Params')).get('ModDate'));
    };
    expect(params(later)).toBe('D:20250302000000Z');
  });

  it('renders the same bytes in the sandbox child (workspace code bundled, fonts inside it)', async () => {
    const entry = fileURLToPath(new URL('./fixtures/pdfa-entry.ts', import.meta.url));
    const sandbox = createSandbox({ entry, processes: 1, memoryMb: 256, timeoutMs: 20_000 });
    try {
      const rendered = await withWorkspace(async (dir) => {
        const out = join(dir, 'invoice.pdf');
        await sandbox.run(RENDER_PDFA_INVOICE, { data: INVOICE, files: {}, out });
        return readFileSync(out);
      });
      expect(rendered.equals(pdf)).toBe(true);
    } finally {
      await sandbox.close();
    }
  });
});

describe('renderPdf({ pdfA })', () => {
  const meta = { title: 'T', createdAt: new Date('2025-01-01T00:00:00Z') };

  it('keeps a document without the option as before: PDF 1.3, standard Helvetica, no XMP', async () => {
    const pdf = await renderPdf(meta, (doc) => paragraph(doc, 'Grüße'));
    const reader = new PdfFile(pdf);
    expect(reader.version).toBe('1.3');
    expect(reader.catalog().has('Metadata')).toBe(false);
    expect(fonts(save(pdf))).toEqual([{ name: 'Helvetica', type: 'Type 1', embedded: 'no' }]);
  });

  it('wraps text as Helvetica does: the Liberation fonts are metric-compatible', async () => {
    const sample = 'Rechnungsbetrag 1.234,56 € – Fällig am 31.03.2025, Größe: Müller & Söhne GmbH';
    const widths = async (pdfA: boolean) => {
      let measured: number[] = [];
      await renderPdf(
        meta,
        (doc) => {
          measured = [FONTS.regular, FONTS.bold, FONTS.mono].map((font) =>
            doc.font(font).fontSize(10).widthOfString(sample),
          );
        },
        { pdfA },
      );
      return measured;
    };
    const [standard, embedded] = [await widths(false), await widths(true)];
    for (const [index, width] of embedded.entries()) expect(Math.abs(width / standard[index] - 1)).toBeLessThan(0.01);
  });

  it('refuses a standard font it has no embedded replacement for', async () => {
    await expect(renderPdf(meta, (doc) => void doc.font('Times-Roman'), { pdfA: true })).rejects.toThrow(
      /Times-Roman has no embedded replacement/,
    );
  });

  it('is a PDF/A only with the option, and attachFacturX refuses any other document', async () => {
    const xml = invoiceXml(INVOICE);
    await expect(
      renderPdf(meta, (doc) => {
        expect(isPdfA(doc)).toBe(false);
        attachFacturX(doc, xml, { conformance: 'EN 16931' });
      }),
    ).rejects.toThrow(/not PDF\/A-3/);
  });

  it('attaches one factur-x.xml, and only a CII invoice', async () => {
    const xml = invoiceXml(INVOICE);
    await expect(
      renderPdf(
        meta,
        (doc) => {
          attachFacturX(doc, xml, { conformance: 'EN 16931' });
          attachFacturX(doc, xml, { conformance: 'EN 16931' });
        },
        { pdfA: true },
      ),
    ).rejects.toThrow(/already has/);
    await expect(
      renderPdf(meta, (doc) => attachFacturX(doc, '<Invoice xmlns="urn:oasis:ubl"/>', { conformance: 'EN 16931' }), {
        pdfA: true,
      }),
    ).rejects.toThrow(/not a CII/);
  });

  it('takes the attachment date from modifiedAt when given, and bytes as they are', async () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(invoiceXml(INVOICE))]);
    const pdf = await renderPdf(
      meta,
      (doc) => {
        expect(isPdfA(doc)).toBe(true);
        attachFacturX(doc, bytes, { conformance: 'BASIC', modifiedAt: new Date('2025-01-02T03:04:05Z') });
      },
      { pdfA: true },
    );
    const reader = new PdfFile(pdf);
    const filespec = reader.dict(reader.array(reader.catalog().get('AF'))[0]);
    const embedded = reader.stream(reader.dict(filespec.get('EF')).get('F'));
    expect(reader.text(reader.dict(embedded.dict.get('Params')).get('ModDate'))).toBe('D:20250102030405Z');
    expect(embedded.data.equals(bytes)).toBe(true);
    expect(xmp(run('pdfinfo', ['-meta', save(pdf)]), NS.fx, 'ConformanceLevel')).toBe('BASIC');
  });

  it('embeds an XRECHNUNG-profile XML as xrechnung.xml, the name ZUGFeRD gives that profile', async () => {
    const xml = invoiceXml(INVOICE);
    const pdf = await renderPdf(
      meta,
      (doc) => {
        paragraph(doc, 'Rechnung');
        attachFacturX(doc, xml, { conformance: 'XRECHNUNG' });
      },
      { pdfA: true },
    );
    const file = save(pdf);
    expect(attachments(file)).toEqual(['xrechnung.xml']);
    const packet = run('pdfinfo', ['-meta', file]);
    expect(xmp(packet, NS.fx, 'DocumentFileName')).toBe('xrechnung.xml');
    expect(xmp(packet, NS.fx, 'ConformanceLevel')).toBe('XRECHNUNG');
    const out = join(work, 'xrechnung.xml');
    run('pdfdetach', ['-save', '1', '-o', out, file]);
    expect(readFileSync(out).equals(Buffer.from(xml, 'utf8'))).toBe(true);
  });

  it('writes a PDF/A without an invoice too: no attachment, no fx properties', async () => {
    const pdf = await renderPdf(meta, (doc) => paragraph(doc, 'Exposé'), { pdfA: true });
    const file = save(pdf);
    expect(attachments(file)).toEqual([]);
    const packet = run('pdfinfo', ['-meta', file]);
    expect(xmp(packet, NS.pdfaid, 'part')).toBe('3');
    expect(packet).not.toContain(FACTURX_NAMESPACE);
    expect(new PdfFile(pdf).catalog().has('AF')).toBe(false);
  });
});

describe('the embedded font files', () => {
  it('are the unmodified Liberation 2.1.5 files their README names', async () => {
    const modules = {
      'liberation-sans-regular': '8d91388f1d3604b3b8ae0e3ee2d140e50cd6122f9214514f4aca772540a4076d',
      'liberation-sans-bold': 'ba0e0dc3f7aca5b0afbc31e800531ee43be3aa79ae35b2ef1f6470a9547765c4',
      'liberation-mono-regular': '6b3809450cf6253b36d157198dc15004a5fbade9abad5543c377feb7bb29139c',
    };
    const readme = readFileSync(new URL('../src/fonts/README.md', import.meta.url), 'utf8');
    for (const [name, hash] of Object.entries(modules)) {
      const { TTF_BASE64 } = (await import(`../src/fonts/${name}.ts`)) as { TTF_BASE64: string };
      expect(sha256(Buffer.from(TTF_BASE64, 'base64'))).toBe(hash);
      expect(readme).toContain(hash);
    }
  });
});
