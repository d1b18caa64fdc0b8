import type { ErrorDetail } from '@platform/http';

/**
 * The official OpenImmo-Feedback 1.2.5 schema (`test/validation/openimmo-feedback/`), transcribed:
 * each complex element is its `xsd:sequence` of particles. The service checks documents with it at
 * run time (it must not run `xmllint`); the tests hold it to `xmllint --schema` on the same
 * documents. No element of the schema declares an attribute or a namespace.
 */
type Particle = { name: string; min: 0 | 1; max: 1 | 'n' };
type Content = { kind: 'sequence'; particles: Particle[] } | { kind: 'text'; allowed?: readonly string[]; int?: true };

const one = (name: string): Particle => ({ name, min: 1, max: 1 });
const optional = (name: string): Particle => ({ name, min: 0, max: 1 });
const many = (name: string, min: 0 | 1 = 0): Particle => ({ name, min, max: 'n' });
const sequence = (...particles: Particle[]): Content => ({ kind: 'sequence', particles });
const TEXT: Content = { kind: 'text' };

/** Element content by the element's path in the schema (its name, or `parent/name` where a name is local). */
const CONTENT: Record<string, Content> = {
  openimmo_feedback: sequence(one('version'), one('sender'), many('objekt'), many('fehlerliste'), many('status')),
  sender: sequence(one('name'), optional('openimmo_anid'), one('datum'), one('makler_id'), optional('regi_id')),
  objekt: sequence(
    ...['portal_unique_id', 'portal_obj_id', 'anbieter_id', 'oobj_id', 'zusatz_refnr', 'expose_url'].map(optional),
    many('vermarktungsart'),
    ...['bezeichnung', 'etage', 'whg_nr', 'strasse', 'ort', 'land', 'stadtbezirk'].map(optional),
    ...['preis', 'gebot', 'wae', 'anzahl_zimmer', 'flaeche'].map(optional),
    many('interessent', 1),
    many('user_defined_extend'),
  ),
  interessent: sequence(
    ...['int_id', 'anrede', 'vorname', 'nachname', 'firma', 'strasse', 'postfach', 'plz', 'ort'].map(optional),
    ...['tel', 'fax', 'mobil', 'email'].map(optional),
    many('bevorzugt'),
    many('wunsch'),
    optional('anfrage'),
    many('user_defined_extend'),
  ),
  'interessent/bevorzugt': { kind: 'text', allowed: ['EMAIL', 'TEL', 'MOBIL', 'FAX', 'BRIEF'] },
  'interessent/wunsch': { kind: 'text', allowed: ['BESICHTIGUNG', 'ANRUF', 'DETAIL'] },
  fehlerliste: sequence(many('fehler')),
  'fehlerliste/fehler': sequence(optional('objekt_id'), optional('fehlernr'), optional('text')),
  'fehler/fehlernr': { kind: 'text', int: true },
  status: sequence(optional('statusnr'), optional('text')),
  'status/statusnr': { kind: 'text', int: true },
  user_defined_extend: sequence(many('feld')),
  'user_defined_extend/feld': sequence(one('name'), one('wert'), many('typ'), many('modus')),
};

/** An element as the parser hands it over: name, attributes, child elements and text, in document order. */
export interface XmlElement {
  name: string;
  attributes: string[];
  children: XmlElement[];
  text: string;
}

const contentOf = (parent: string | null, name: string): Content =>
  (parent !== null ? CONTENT[`${parent}/${name}`] : undefined) ?? CONTENT[name] ?? TEXT;

/** xsd:int: an optionally signed decimal integer within 32 bits, whitespace collapsed. */
const isInt = (value: string) => /^[+-]?\d+$/.test(value.trim()) && Math.abs(Number(value.trim())) <= 2 ** 31;

/** Attributes every schema validator allows: namespace declarations of xsi and xsi's own. */
const allowedAttribute = (name: string) => name === 'xmlns:xsi' || name.startsWith('xsi:');

const MAX_DETAILS = 20;

/** Where the document breaks the schema, as 422 details (`feld` a path like `objekt[1]/interessent[2]/wunsch`); `[]` when valid. */
export function feedbackSchemaDetails(root: XmlElement): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  if (root.name !== 'openimmo_feedback') return [{ field: root.name, reason: 'not_allowed' }];
  check(root, null, '', details);
  return details.slice(0, MAX_DETAILS);
}

function check(element: XmlElement, parent: string | null, path: string, details: ErrorDetail[]): void {
  for (const attribute of element.attributes.filter((name) => !allowedAttribute(name)))
    details.push({ field: `${path || element.name}/@${attribute}`, reason: 'unknown_field' });
  const content = contentOf(parent, element.name);
  if (content.kind === 'text') {
    if (element.children.length > 0) details.push({ field: path || element.name, reason: 'invalid_type' });
    else if (content.allowed && !content.allowed.includes(element.text))
      details.push({ field: path, reason: 'not_allowed', constraint: { allowed: content.allowed } });
    else if (content.int && !isInt(element.text))
      details.push({ field: path, reason: 'invalid_format', constraint: { type: 'integer' } });
    return;
  }
  if (element.text.trim() !== '') details.push({ field: path || element.name, reason: 'invalid_type' });
  checkSequence(element, content.particles, path, details);
}

/** Greedy matching is exact here: the names of one sequence are all different. */
function checkSequence(element: XmlElement, particles: Particle[], path: string, details: ErrorDetail[]): void {
  const counts = new Map<string, number>();
  const at = (name: string) => `${path ? `${path}/` : ''}${name}`;
  const requireUpTo = (from: number, to: number) => {
    for (const skipped of particles.slice(from, to))
      if (skipped.min === 1 && !counts.has(skipped.name)) details.push({ field: at(skipped.name), reason: 'missing' });
  };
  let position = 0;
  for (const child of element.children) {
    const index = particles.findIndex((particle, i) => i >= position && particle.name === child.name);
    const seen = (counts.get(child.name) ?? 0) + 1;
    if (index === -1) {
      const known = particles.some((particle) => particle.name === child.name);
      details.push({ field: at(`${child.name}[${seen}]`), reason: known ? 'not_allowed' : 'unknown_field' });
      continue;
    }
    requireUpTo(position, index);
    counts.set(child.name, seen);
    const repeatable = particles[index]!.max === 'n';
    // A repeatable particle may match again; one that occurs once is behind us.
    position = repeatable ? index : index + 1;
    check(child, element.name, at(repeatable ? `${child.name}[${seen}]` : child.name), details);
  }
  requireUpTo(position, particles.length);
}
