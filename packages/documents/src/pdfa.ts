import type { PdfDocument, PdfMetadata } from './pdf.js';

/**
 * PDF/A-3b through pdfkit's own support, in the same single pass that draws the document, and a
 * Factur-X / ZUGFeRD invoice XML as its associated file. `renderPdf(meta, draw, { pdfA: true })`
 * turns it on; `attachFacturX(doc, xml, …)` inside `draw` makes it a hybrid invoice.
 *
 * What pdfkit does (`subset: 'PDF/A-3b'`, `pdfVersion: '1.7'`): pdfaid part 3 / conformance B in
 * the XMP packet, the sRGB output intent with the ICC profile pdfkit ships (the ICC's sRGB2014.icc,
 * see below), TrueType fonts embedded as subsets with ToUnicode maps, and `doc.file()` writes the
 * embedded file stream (MIME subtype, Params with dates and checksum), its file specification
 * (F, UF, Desc, AFRelationship), the EmbeddedFiles name tree and the catalog's /AF array.
 *
 * What is added here:
 * - Embedded fonts for pdfkit's standard font names that `FONTS` uses: Helvetica and
 *   Helvetica-Bold become Liberation Sans (metric-compatible with Helvetica/Arial, so text wraps
 *   as before), Courier becomes Liberation Mono (./fonts/: SIL Open Font License 1.1). Any other
 *   standard font name throws: it would be written unembedded, which PDF/A forbids.
 * - The XMP packet's document description, written here instead of by pdfkit: pdfkit's copies the
 *   title and author into XML unescaped (an `&` in an issuer's name breaks the packet) and leaves
 *   out xmp:ModifyDate, while PDF/A wants every Info entry matched in XMP. It is written from the
 *   document's Info dictionary at the end, so the two cannot differ; for a Factur-X document the
 *   fx properties and their PDF/A extension schema description follow.
 *
 * The output intent's profile is pdfkit's `js/data/sRGB_IEC61966_2_1.icc`: the International
 * Color Consortium's sRGB2014.icc (ICC v2, 3,024 bytes, "Copyright International Color
 * Consortium, 2015"), under the ICC's terms: "This profile is made available by the International
 * Color Consortium, and may be copied, distributed, embedded, made, used, and sold without
 * restriction. Altered versions of this profile shall have the original identification and
 * copyright information removed and shall not be misrepresented as the original profile."
 * (test/pdfa.test.ts checks the embedded profile's hash, so a different one from a pdfkit update
 * is noticed.)
 *
 * Deterministic like `renderPdf`: every date comes from `createdAt` (or an explicit `modifiedAt`).
 */

/** The Factur-X profiles (XMP fx:ConformanceLevel), Factur-X 1.07 / ZUGFeRD 2.3. */
export type FacturXConformance = 'MINIMUM' | 'BASIC WL' | 'BASIC' | 'EN 16931' | 'EXTENDED' | 'XRECHNUNG';

export interface FacturXOptions {
  conformance: FacturXConformance;
  /** XMP fx:DocumentType; Factur-X knows INVOICE only (credit notes are invoices by type code). */
  documentType?: 'INVOICE';
  /** The embedded file's ModDate (and CreationDate); the document's `createdAt` when not given. */
  modifiedAt?: Date;
}

/** The embedded XML's name, fixed by Factur-X 1.0 and ZUGFeRD 2.1 onwards. */
export const FACTURX_FILE_NAME = 'factur-x.xml';
/** ZUGFeRD 2.1.1 onwards: the XML of the XRECHNUNG reference profile is embedded under this name instead. */
export const XRECHNUNG_FILE_NAME = 'xrechnung.xml';

/** The embedded XML's name for a conformance level. */
export const facturXFileName = (conformance: FacturXConformance) =>
  conformance === 'XRECHNUNG' ? XRECHNUNG_FILE_NAME : FACTURX_FILE_NAME;
/** The Factur-X XMP schema's namespace (fx:), with the trailing `#` the specification requires. */
export const FACTURX_NAMESPACE = 'urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#';
/** XMP fx:Version: the version of the Factur-X XMP schema, 1.0 for Factur-X 1.0x and ZUGFeRD 2.x. */
const FACTURX_VERSION = '1.0';

/** pdfkit's standard font names that get an embedded font in PDF/A (those of `FONTS`). */
const EMBEDDED_FOR = ['Helvetica', 'Helvetica-Bold', 'Courier'] as const;
type EmbeddedName = (typeof EMBEDDED_FOR)[number];
const STANDARD_FONT_NAMES = new Set([
  ...EMBEDDED_FOR,
  'Courier-Bold',
  'Courier-BoldOblique',
  'Courier-Oblique',
  'Helvetica-BoldOblique',
  'Helvetica-Oblique',
  'Symbol',
  'Times-Bold',
  'Times-BoldItalic',
  'Times-Italic',
  'Times-Roman',
  'ZapfDingbats',
]);

let fonts: Promise<Record<EmbeddedName, Buffer>> | undefined;

/** The font files, decoded once a process and only when a PDF/A is drawn (1.1 MB). */
function embeddedFonts(): Promise<Record<EmbeddedName, Buffer>> {
  fonts ??= Promise.all([
    import('./fonts/liberation-sans-regular.js'),
    import('./fonts/liberation-sans-bold.js'),
    import('./fonts/liberation-mono-regular.js'),
  ]).then(([regular, bold, mono]) => ({
    Helvetica: Buffer.from(regular.TTF_BASE64, 'base64'),
    'Helvetica-Bold': Buffer.from(bold.TTF_BASE64, 'base64'),
    Courier: Buffer.from(mono.TTF_BASE64, 'base64'),
  }));
  return fonts;
}

interface PdfAState {
  createdAt: Date;
  facturX?: { conformance: FacturXConformance; documentType: 'INVOICE' };
}

const PDFA = new WeakMap<PdfDocument, PdfAState>();

export interface PdfAProfile {
  /** pdfkit's options for a PDF/A-3b document: PDF 1.7 and the subset. */
  documentOptions: PDFKit.PDFDocumentOptions;
  /** Makes a document created with `documentOptions` PDF/A-3b: the fonts, the guard, the XMP. */
  prepare(doc: PdfDocument, meta: PdfMetadata): void;
}

/** What `renderPdf` needs to draw a PDF/A-3b document (the fonts loaded first). */
export async function pdfAProfile(): Promise<PdfAProfile> {
  const files = await embeddedFonts();
  return {
    documentOptions: { pdfVersion: '1.7', subset: 'PDF/A-3b' },
    prepare: (doc, meta) => preparePdfA(doc, meta, files),
  };
}

/** The name a replacement font is registered under: pdfkit keeps fonts it opened by their name, so not the standard one. */
const alias = (name: EmbeddedName) => `pdfa:${name}`;

function preparePdfA(doc: PdfDocument, meta: PdfMetadata, files: Record<EmbeddedName, Buffer>): void {
  for (const name of EMBEDDED_FOR) doc.registerFont(alias(name), files[name]);
  const state: PdfAState = { createdAt: meta.createdAt };
  PDFA.set(doc, state);

  // Standard names are drawn with their replacement; the rest would be written unembedded. (pdfkit's
  // own default font, Helvetica, is opened when the document is created but never written: only a
  // font used on a page is, and renderPdf picks FONTS.regular before anything is drawn.)
  const font = doc.font.bind(doc) as (src: unknown, family?: unknown, size?: unknown) => PdfDocument;
  doc.font = ((src: unknown, family?: unknown, size?: unknown): PdfDocument => {
    if (typeof src === 'string' && STANDARD_FONT_NAMES.has(src)) {
      if (!(EMBEDDED_FOR as readonly string[]).includes(src))
        throw new Error(`PDF/A: the standard font ${src} has no embedded replacement (use FONTS)`);
      return font(alias(src as EmbeddedName), family, size);
    }
    return font(src, family, size);
  }) as PdfDocument['font'];

  // pdfkit calls _addInfo while it ends the document, after its pdfaid description.
  const internals = doc as unknown as PdfkitInternals;
  internals._addInfo = () => internals.appendXML(xmpDescriptions(internals.info, state));
}

/** Whether the document is being drawn as PDF/A-3b (`renderPdf(…, { pdfA: true })`). */
export function isPdfA(doc: PdfDocument): boolean {
  return PDFA.has(doc);
}

/**
 * Embeds a Factur-X / ZUGFeRD CII invoice XML as the document's associated file `factur-x.xml`
 * (AFRelationship /Alternative: the XML is the invoice the PDF shows, MIME text/xml, ModDate) and
 * declares it in the XMP (fx: DocumentType, DocumentFileName, Version, ConformanceLevel, with the
 * PDF/A extension schema). The bytes are embedded as given: a string as UTF-8. Call it while
 * drawing a PDF/A document, once.
 */
export function attachFacturX(doc: PdfDocument, xml: string | Uint8Array, options: FacturXOptions): void {
  const state = PDFA.get(doc);
  if (!state) throw new Error('attachFacturX: the document is not PDF/A-3 (renderPdf(…, { pdfA: true }))');
  if (state.facturX) throw new Error('attachFacturX: the document already has its invoice XML');
  const bytes = typeof xml === 'string' ? Buffer.from(xml, 'utf8') : Buffer.from(xml);
  if (!/<([A-Za-z_][\w.-]*:)?CrossIndustryInvoice[\s>]/.test(bytes.subarray(0, 4096).toString('utf8')))
    throw new Error('attachFacturX: the XML is not a CII CrossIndustryInvoice');
  const modifiedAt = options.modifiedAt ?? state.createdAt;
  if (Number.isNaN(modifiedAt.getTime())) throw new Error('attachFacturX: modifiedAt is not a valid date');
  const attachment: PDFKit.Mixins.PDFAttachmentOptions & { relationship: string } = {
    name: facturXFileName(options.conformance),
    type: 'text/xml',
    description: `Factur-X invoice (${options.conformance})`,
    relationship: 'Alternative',
    creationDate: modifiedAt,
    modifiedDate: modifiedAt,
  };
  doc.file(bytes, attachment);
  state.facturX = { conformance: options.conformance, documentType: options.documentType ?? 'INVOICE' };
}

/** What is used of pdfkit's document beyond its published types. */
interface PdfkitInternals {
  info: Record<string, unknown>;
  appendXML(xml: string, newline?: boolean): void;
  _addInfo: () => void;
}

/** An XMP date: seconds and the zone, as PDF/A validators expect (`2025-03-01T00:00:00Z`). */
function xmpDate(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function xmlText(value: string): string {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/.test(value))
    throw new Error('PDF/A: a metadata value has a character XML cannot hold');
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? xmlText(value) : undefined;
}

function date(value: unknown): string | undefined {
  return value instanceof Date ? xmpDate(value) : undefined;
}

/** The rdf:Descriptions matching the Info dictionary, then the Factur-X ones when there is an XML. */
function xmpDescriptions(info: Record<string, unknown>, state: PdfAState): string {
  const title = text(info.Title);
  const author = text(info.Author);
  const subject = text(info.Subject);
  const keywords = text(info.Keywords);
  const creator = text(info.Creator);
  const producer = text(info.Producer);
  const created = date(info.CreationDate);
  const modified = date(info.ModDate);
  const lines = [
    '<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">',
    '<dc:format>application/pdf</dc:format>',
    title && `<dc:title><rdf:Alt><rdf:li xml:lang="x-default">${title}</rdf:li></rdf:Alt></dc:title>`,
    author && `<dc:creator><rdf:Seq><rdf:li>${author}</rdf:li></rdf:Seq></dc:creator>`,
    subject && `<dc:description><rdf:Alt><rdf:li xml:lang="x-default">${subject}</rdf:li></rdf:Alt></dc:description>`,
    '</rdf:Description>',
    '<rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/">',
    creator && `<xmp:CreatorTool>${creator}</xmp:CreatorTool>`,
    created && `<xmp:CreateDate>${created}</xmp:CreateDate>`,
    modified && `<xmp:ModifyDate>${modified}</xmp:ModifyDate>`,
    (modified ?? created) && `<xmp:MetadataDate>${modified ?? created}</xmp:MetadataDate>`,
    '</rdf:Description>',
    '<rdf:Description rdf:about="" xmlns:pdf="http://ns.adobe.com/pdf/1.3/">',
    producer && `<pdf:Producer>${producer}</pdf:Producer>`,
    keywords && `<pdf:Keywords>${keywords}</pdf:Keywords>`,
    '</rdf:Description>',
  ];
  if (state.facturX) lines.push(...facturXDescriptions(state.facturX));
  return lines.filter((line): line is string => typeof line === 'string' && line !== '').join('\n');
}

const FACTURX_PROPERTIES: ReadonlyArray<readonly [name: string, description: string]> = [
  ['DocumentFileName', 'The name of the embedded XML document'],
  ['DocumentType', 'The type of the hybrid document in capital letters, e.g. INVOICE or ORDER'],
  ['Version', 'The actual version of the standard applying to the embedded XML document'],
  ['ConformanceLevel', 'The conformance level of the embedded XML document'],
];

function facturXDescriptions(facturX: NonNullable<PdfAState['facturX']>): string[] {
  return [
    '<rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">',
    '<pdfaExtension:schemas><rdf:Bag><rdf:li rdf:parseType="Resource">',
    '<pdfaSchema:schema>Factur-X PDFA Extension Schema</pdfaSchema:schema>',
    `<pdfaSchema:namespaceURI>${FACTURX_NAMESPACE}</pdfaSchema:namespaceURI>`,
    '<pdfaSchema:prefix>fx</pdfaSchema:prefix>',
    '<pdfaSchema:property><rdf:Seq>',
    ...FACTURX_PROPERTIES.map(
      ([name, description]) =>
        `<rdf:li rdf:parseType="Resource"><pdfaProperty:name>${name}</pdfaProperty:name><pdfaProperty:valueType>Text</pdfaProperty:valueType><pdfaProperty:category>external</pdfaProperty:category><pdfaProperty:description>${description}</pdfaProperty:description></rdf:li>`,
    ),
    '</rdf:Seq></pdfaSchema:property>',
    '</rdf:li></rdf:Bag></pdfaExtension:schemas>',
    '</rdf:Description>',
    `<rdf:Description rdf:about="" xmlns:fx="${FACTURX_NAMESPACE}">`,
    `<fx:DocumentType>${facturX.documentType}</fx:DocumentType>`,
    `<fx:DocumentFileName>${facturXFileName(facturX.conformance)}</fx:DocumentFileName>`,
    `<fx:Version>${FACTURX_VERSION}</fx:Version>`,
    `<fx:ConformanceLevel>${facturX.conformance}</fx:ConformanceLevel>`,
    '</rdf:Description>',
  ];
}
