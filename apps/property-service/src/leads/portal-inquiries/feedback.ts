import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { validationError, type ErrorDetail } from '@platform/http';
import { feedbackSchemaDetails, type XmlElement } from './feedback-structure.js';

/** One inquiry (`interessent`) of a feedback document, as sent (trimmed; empty is absent). */
export interface FeedbackInterest {
  /** Where it stands in the document, for error details: `objekt[1]/interessent[2]`. */
  path: string;
  int_id?: string;
  anrede?: string;
  vorname?: string;
  nachname?: string;
  firma?: string;
  tel?: string;
  mobil?: string;
  email?: string;
  anfrage?: string;
  /** `user_defined_extend/feld` name → wert (names lower-cased). */
  extras: Record<string, string>;
}

export interface FeedbackObject {
  path: string;
  oobj_id?: string;
  zusatz_refnr?: string;
  portal_obj_id?: string;
  extras: Record<string, string>;
  interessenten: FeedbackInterest[];
}

export interface Feedback {
  /** `sender/name`: the portal as it names itself. */
  sender: string;
  objekte: FeedbackObject[];
}

const NOT_FEEDBACK_DE = 'Das Dokument ist kein gültiges OpenImmo-Feedback (Schema openimmo-feedback_125.xsd).';
const NOT_FEEDBACK_EN = 'The document is not valid OpenImmo-Feedback (schema openimmo-feedback_125.xsd).';

/** 422: the body is not an OpenImmo-Feedback document; `details` say where. */
export const notFeedback = (details: ErrorDetail[]) => validationError(details, NOT_FEEDBACK_EN, NOT_FEEDBACK_DE);

/** The bytes as text in the encoding the XML declaration names (UTF-8 or ISO-8859-1/Windows-1252); invalid UTF-8 is 422. */
export function decodeXml(bytes: Buffer): string {
  const head = bytes.subarray(0, 200).toString('latin1');
  const declared = /^\s*<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1]?.toLowerCase();
  const latin = declared !== undefined && /^(iso-8859-1|iso-8859-15|latin1|windows-1252|cp1252)$/.test(declared);
  try {
    return new TextDecoder(latin ? 'windows-1252' : 'utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    throw notFeedback([{ field: 'dokument', reason: 'invalid_format', constraint: { format: 'utf-8' } }]);
  }
}

/** Whether the text is an `openimmo_feedback` document, judged by its root element (not by a file name). */
export function looksLikeFeedback(text: string): boolean {
  return /^\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*<openimmo_feedback[\s>/]/.test(text.replace(/^\uFEFF/, ''));
}

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: true,
  htmlEntities: false,
});

type OrderedNode = Record<string, unknown> & { ':@'?: Record<string, string> };

function toElement(node: OrderedNode): XmlElement | null {
  const name = Object.keys(node).find((key) => key !== ':@');
  if (!name || name.startsWith('?') || name === '#text') return null;
  const children: XmlElement[] = [];
  let text = '';
  for (const child of (node[name] as OrderedNode[]) ?? []) {
    if ('#text' in child) text += String(child['#text']);
    else {
      const element = toElement(child);
      if (element) children.push(element);
    }
  }
  return { name, attributes: Object.keys(node[':@'] ?? {}), children, text };
}

/** The document's root element, or 422 when it is not well-formed XML (DTDs and entities refused). */
export function parseXml(text: string): XmlElement {
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw notFeedback([{ field: 'dokument', reason: 'not_allowed' }]);
  const verdict = XMLValidator.validate(text);
  if (verdict !== true) throw notFeedback([{ field: `dokument/zeile[${verdict.err.line}]`, reason: 'invalid_format' }]);
  let parsed: OrderedNode[];
  try {
    parsed = parser.parse(text) as OrderedNode[];
  } catch {
    // Well-formed but beyond the parser's limits (e.g. nested deeper than it follows): no feedback document.
    throw notFeedback([{ field: 'dokument', reason: 'invalid_format' }]);
  }
  const roots = parsed.map(toElement).filter((e): e is XmlElement => e !== null);
  if (roots.length !== 1) throw notFeedback([{ field: 'dokument', reason: 'invalid_format' }]);
  return roots[0]!;
}

const textOf = (element: XmlElement, name: string): string | undefined => {
  const value = element.children.find((child) => child.name === name)?.text.trim();
  return value === '' ? undefined : value;
};

function extrasOf(element: XmlElement): Record<string, string> {
  const extras: Record<string, string> = {};
  for (const extend of element.children.filter((child) => child.name === 'user_defined_extend'))
    for (const feld of extend.children) {
      const name = textOf(feld, 'name');
      const wert = textOf(feld, 'wert');
      if (name && wert) extras[name.toLowerCase()] = wert;
    }
  return extras;
}

const INTEREST_FIELDS = [
  'int_id',
  'anrede',
  'vorname',
  'nachname',
  'firma',
  'tel',
  'mobil',
  'email',
  'anfrage',
] as const;

/** A feedback document read from its text: well-formed, valid against the schema (422 otherwise), its inquiries. */
export function readFeedback(text: string): Feedback {
  const root = parseXml(text);
  const details = feedbackSchemaDetails(root);
  if (details.length > 0) throw notFeedback(details);
  const sender = root.children.find((child) => child.name === 'sender')!;
  return {
    sender: textOf(sender, 'name') ?? '',
    objekte: root.children
      .filter((child) => child.name === 'objekt')
      .map((objekt, i) => ({
        path: `objekt[${i + 1}]`,
        oobj_id: textOf(objekt, 'oobj_id'),
        zusatz_refnr: textOf(objekt, 'zusatz_refnr'),
        portal_obj_id: textOf(objekt, 'portal_obj_id'),
        extras: extrasOf(objekt),
        interessenten: objekt.children
          .filter((child) => child.name === 'interessent')
          .map((interessent, j) => {
            const interest: FeedbackInterest = {
              path: `objekt[${i + 1}]/interessent[${j + 1}]`,
              extras: extrasOf(interessent),
            };
            for (const field of INTEREST_FIELDS) interest[field] = textOf(interessent, field);
            return interest;
          }),
      })),
  };
}
