import type { Dialect } from './errors.js';

/**
 * The rule a value broke, machine-readable: a detail's `constraint` (German `vorgabe`). Only the
 * members that apply are present, e.g. `{ minimum: 1, maximum: 100 }` or `{ allowed: ['sale'] }`.
 */
export interface Constraint {
  minimum?: number;
  maximum?: number;
  exclusive_minimum?: number;
  exclusive_maximum?: number;
  min_length?: number;
  max_length?: number;
  min_items?: number;
  max_items?: number;
  max_properties?: number;
  allowed?: readonly unknown[];
  pattern?: string;
  format?: string;
  type?: string | readonly string[];
  multiple_of?: number;
  unique_items?: boolean;
  read_only?: boolean;
  max_bytes?: number;
}

/** The German names of the constraint's members (the leads dialect translates member names). */
export const CONSTRAINT_KEYS_DE = {
  minimum: 'minimum',
  maximum: 'maximum',
  exclusive_minimum: 'minimum_exklusiv',
  exclusive_maximum: 'maximum_exklusiv',
  min_length: 'min_laenge',
  max_length: 'max_laenge',
  min_items: 'min_anzahl',
  max_items: 'max_anzahl',
  max_properties: 'max_felder',
  allowed: 'erlaubt',
  pattern: 'muster',
  format: 'format',
  type: 'typ',
  multiple_of: 'vielfaches_von',
  unique_items: 'eindeutig',
  read_only: 'nur_lesen',
  max_bytes: 'max_bytes',
} as const satisfies Record<keyof Constraint, string>;

export function constraintInDialect(constraint: Constraint, dialect: Dialect): Record<string, unknown> {
  if (dialect === 'en') return { ...constraint };
  return Object.fromEntries(
    Object.entries(constraint).map(([key, value]) => [CONSTRAINT_KEYS_DE[key as keyof Constraint], value]),
  );
}

const FORMATS: Record<string, { en: string; de: string }> = {
  date: { en: 'a date (YYYY-MM-DD, years 1000–9999)', de: 'ein Datum (JJJJ-MM-TT, Jahre 1000–9999)' },
  'date-time': {
    en: 'a date-time in RFC 3339 with a time zone (2025-01-31T09:00:00Z)',
    de: 'ein Zeitpunkt nach RFC 3339 mit Zeitzone (2025-01-31T09:00:00Z)',
  },
  email: { en: 'an e-mail address', de: 'eine E-Mail-Adresse' },
  uri: { en: 'an absolute URI', de: 'eine absolute URI' },
  uuid: { en: 'a UUID', de: 'eine UUID' },
};

const list = (values: readonly unknown[]) => values.map((value) => JSON.stringify(value)).join(', ');
const types = (type: string | readonly string[], or: string) => [type].flat().join(` ${or} `);

type Texts = {
  between: (low: number, high: number, unit: string) => string;
  atLeast: (low: number, unit: string) => string;
  atMost: (high: number, unit: string) => string;
  /** An exclusive bound, with the other bound if there is one: `greater than 0 and at most 10`. */
  exclusive: (lower: string | undefined, upper: string | undefined) => string;
  greaterThan: (value: number) => string;
  lessThan: (value: number) => string;
  atMostBare: (value: number) => string;
  atLeastBare: (value: number) => string;
  units: { chars: string; items: string; members: string };
  allowed: (values: readonly unknown[]) => string;
  pattern: (pattern: string) => string;
  format: (format: string) => string;
  type: (type: string | readonly string[]) => string;
  notNull: (type: string | readonly string[]) => string;
  multipleOf: (value: number) => string;
  unique: string;
  readOnly: string;
  maxBytes: (bytes: number) => string;
};

const EN: Texts = {
  between: (low, high, unit) => `must be between ${low} and ${high}${unit}`,
  atLeast: (low, unit) => `must be at least ${low}${unit}`,
  atMost: (high, unit) => `must be at most ${high}${unit}`,
  exclusive: (lower, upper) => `must be ${[lower, upper].filter(Boolean).join(' and ')}`,
  greaterThan: (value) => `greater than ${value}`,
  lessThan: (value) => `less than ${value}`,
  atMostBare: (value) => `at most ${value}`,
  atLeastBare: (value) => `at least ${value}`,
  units: { chars: ' characters long', items: ' items', members: ' members' },
  allowed: (values) => `must be one of: ${list(values)}`,
  pattern: (pattern) => `must match the pattern ${pattern}`,
  format: (format) => `must be ${FORMATS[format]?.en ?? `in the format ${format}`}`,
  type: (type) => `must be of type ${types(type, 'or')}`,
  notNull: (type) => `is required and cannot be null (send a value of type ${types(type, 'or')})`,
  multipleOf: (value) => `must be a multiple of ${value}`,
  unique: 'must not contain the same item twice',
  readOnly: 'is read-only and cannot be written',
  maxBytes: (bytes) => `must be at most ${bytes} bytes`,
};

/** German needs the verb of the unit: a number "liegt"/"ist", a length "ist … lang", a list "hat". */
const deVerb = (unit: string, plain: string) => (unit === '' ? plain : unit.endsWith('lang') ? 'sein' : 'haben');

/** German numbers in German texts: 2,5 and 1.048.576, as the score texts write them. */
const GERMAN_NUMBER = new Intl.NumberFormat('de-DE', { maximumFractionDigits: 20 });
const de = (value: number) => GERMAN_NUMBER.format(value);

const DE: Texts = {
  between: (low, high, unit) => `muss zwischen ${de(low)} und ${de(high)}${unit} ${deVerb(unit, 'liegen')}`,
  atLeast: (low, unit) => `muss mindestens ${de(low)}${unit} ${deVerb(unit, 'sein')}`,
  atMost: (high, unit) => `darf höchstens ${de(high)}${unit} ${deVerb(unit, 'sein')}`,
  exclusive: (lower, upper) => `muss ${[lower, upper].filter(Boolean).join(' und ')} sein`,
  greaterThan: (value) => `größer als ${de(value)}`,
  lessThan: (value) => `kleiner als ${de(value)}`,
  atMostBare: (value) => `höchstens ${de(value)}`,
  atLeastBare: (value) => `mindestens ${de(value)}`,
  units: { chars: ' Zeichen lang', items: ' Einträge', members: ' Felder' },
  allowed: (values) => `muss einer dieser Werte sein: ${list(values)}`,
  pattern: (pattern) => `muss dem Muster ${pattern} entsprechen`,
  format: (format) => `muss ${FORMATS[format]?.de ?? `im Format ${format}`} sein`,
  type: (type) => `muss vom Typ ${types(type, 'oder')} sein`,
  notNull: (type) => `ist erforderlich und darf nicht null sein (einen Wert vom Typ ${types(type, 'oder')} senden)`,
  multipleOf: (value) => `muss ein Vielfaches von ${de(value)} sein`,
  unique: 'darf keinen Eintrag doppelt enthalten',
  readOnly: 'ist schreibgeschützt und kann nicht geschrieben werden',
  maxBytes: (bytes) => `darf höchstens ${de(bytes)} Bytes groß sein`,
};

function exclusiveBounds(t: Texts, c: Constraint): string | undefined {
  if (c.exclusive_minimum === undefined && c.exclusive_maximum === undefined) return undefined;
  const lower =
    c.exclusive_minimum !== undefined
      ? t.greaterThan(c.exclusive_minimum)
      : c.minimum !== undefined
        ? t.atLeastBare(c.minimum)
        : undefined;
  const upper =
    c.exclusive_maximum !== undefined
      ? t.lessThan(c.exclusive_maximum)
      : c.maximum !== undefined
        ? t.atMostBare(c.maximum)
        : undefined;
  return t.exclusive(lower, upper);
}

function bounds(t: Texts, low: number | undefined, high: number | undefined, unit: string): string | undefined {
  if (low !== undefined && high !== undefined) return t.between(low, high, unit);
  if (low !== undefined) return t.atLeast(low, unit);
  if (high !== undefined) return t.atMost(high, unit);
  return undefined;
}

/**
 * What the constraint asks for, in the dialect's language, after the field's name:
 * `limit must be between 1 and 100.` / `limit muss zwischen 1 und 100 liegen.`
 */
export function constraintMessage(
  field: string,
  constraint: Constraint,
  dialect: Dialect,
  options: { nullGiven?: boolean } = {},
): string {
  const t = dialect === 'en' ? EN : DE;
  const c = constraint;
  const text =
    (c.type !== undefined ? (options.nullGiven ? t.notNull(c.type) : t.type(c.type)) : undefined) ??
    (c.allowed ? t.allowed(c.allowed) : undefined) ??
    exclusiveBounds(t, c) ??
    bounds(t, c.minimum, c.maximum, '') ??
    bounds(t, c.min_length, c.max_length, t.units.chars) ??
    bounds(t, c.min_items, c.max_items, t.units.items) ??
    bounds(t, undefined, c.max_properties, t.units.members) ??
    (c.pattern !== undefined ? t.pattern(c.pattern) : undefined) ??
    (c.format !== undefined ? t.format(c.format) : undefined) ??
    (c.multiple_of !== undefined ? t.multipleOf(c.multiple_of) : undefined) ??
    (c.unique_items ? t.unique : undefined) ??
    (c.read_only ? t.readOnly : undefined) ??
    (c.max_bytes !== undefined ? t.maxBytes(c.max_bytes) : undefined) ??
    '';
  return `${field} ${text}.`;
}
