// How the service reads a street as entered (used by properties when they are written and by listings when they publish; also in the sandbox, so it imports nothing).
/** A street as entered, in its parts: the name, the house number and whatever follows them. */
export interface StreetParts {
  /** The street's name: "Hauptstraße", "Baker Street", "Straße des 17. Juni". */
  name: string;
  /** "5", "12a", "3-5", "221B"; null when the street has none. */
  number: string | null;
}

// A house number: digits with an optional letter, optionally a range or a second number
// ("12a", "12 a", "3-5", "3–5", "7/2"), standing alone: not "17." (an ordinal in "Straße des 17. Juni").
const NUMBER = /(?:^|\s)(?:(?:Nr|No)\.?\s*)?(\d{1,5}\s?[a-zA-Z]?(?:\s*[-–/]\s*\d{1,5}\s?[a-zA-Z]?)?)(?=$|[\s,;(])/gu;
// A leading unit before the street ("Flat 3, 12 Baker Street", "Whg. 4, Hauptstraße 5"): not the street.
const UNIT = /^(?:flat|apt\.?|apartment|unit|suite|whg\.?|wohnung|app\.?)\s*\S*\s*,\s*/iu;
// Where the addition begins: a comma or a parenthesis ("5, Hinterhaus", "5 (2. OG links)").
const ADDITION = /\s*[,(;].*$/su;

const normalise = (number: string) => number.replace(/\s+/gu, '').replace(/–/gu, '-');

/**
 * Splits a street as entered into its name and its house number, German and international forms:
 * "Hauptstraße 5, Hinterhaus" → Hauptstraße / 5, "Hauptstr. 5 (2. OG links)" → Hauptstr. / 5,
 * "12 Baker Street" → Baker Street / 12, "Am Markt 3-5" → Am Markt / 3-5,
 * "Straße des 17. Juni 100" → Straße des 17. Juni / 100. An addition after the number (or after
 * a comma or parenthesis) belongs to neither part: it is dropped, as it says where in the
 * building, not which building.
 */
export function splitStreet(entered: string): StreetParts {
  const street = entered.trim().replace(/\s+/gu, ' ').replace(UNIT, '');
  for (const match of street.matchAll(NUMBER)) {
    const start = match.index + match[0].indexOf(match[1]);
    const before = street.slice(0, match.index).trim();
    const after = street.slice(start + match[1].length);
    if (before === '') {
      // The number leads ("12 Baker Street"): the name is what follows, up to an addition.
      const name = after.replace(ADDITION, '').trim();
      if (name !== '') return { name, number: normalise(match[1]) };
      continue;
    }
    // A number after the name; anything from a comma or parenthesis before it is an addition already.
    if (/[,(;]/u.test(before)) break;
    return { name: before.replace(/\s*(?:Nr|No)\.?$/iu, '').trim(), number: normalise(match[1]) };
  }
  return { name: street.replace(ADDITION, '').trim() || street, number: null };
}

/** The house number of an address: the one given apart, else the one split off the street (null: none). */
export function houseNumberOf(street: string | null | undefined, given: string | null | undefined): string | null {
  if (given) return given;
  return street ? splitStreet(street).number : null;
}
