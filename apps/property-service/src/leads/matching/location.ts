// Which wanted locations of a search profile a property's city matches. The model compares by
// these keys, the SQL rankings (matching-sql.ts) by the same rule; a test keeps them in step.

/** Where a city's leading part ends: "Berlin-Mitte", "Berlin Mitte", "Frankfurt am Main". */
const SEPARATOR = /[- ]/g;

/** The hyphen and the space are interchangeable in a wanted district, spelled one way throughout. */
const spellings = (part: string) => [part, part.replaceAll(' ', '-'), part.replaceAll('-', ' ')];

/**
 * Every normalised wanted location (trimmed, lower-cased: `normaliseLocation`) that matches a
 * city: the city itself and each leading part of it before a hyphen or space, each with its
 * hyphens as spaces or its spaces as hyphens. So "Berlin" matches "Berlin-Mitte" and "Berlin
 * Mitte" (a search for the city finds its districts), "Berlin Mitte" matches "Berlin-Mitte", but
 * "Berlin-Mitte" matches neither "Berlin-Pankow" nor plain "Berlin" (that may be anywhere in the
 * city), and "Mitte" alone matches nothing (many cities have one).
 */
export function cityKeys(city: string): string[] {
  const lower = city.toLowerCase();
  const parts = [...lower.matchAll(SEPARATOR)].map((m) => lower.slice(0, m.index));
  return [...new Set([lower, ...parts].flatMap(spellings))];
}

/**
 * Every normalised location that matches the property: its `cityKeys` and every prefix of its
 * postal code, the empty one included (a blank entry is a prefix of any code). A search profile's
 * location matches exactly when its normalised form is one of these.
 */
export function locationKeys(property: { address_city: string; address_postal_code: string }): string[] {
  const postal = property.address_postal_code;
  const prefixes = Array.from({ length: postal.length + 1 }, (_, n) => postal.slice(0, n));
  return [...new Set([...cityKeys(property.address_city), ...prefixes])];
}
