// Numbers in the German explanations of a score: one formatter, so that "2,5 Zimmer" stands next
// to "415.000 €" and never "2.5".
const GERMAN = new Intl.NumberFormat('de-DE');

/** `2,5`, `52,75`, `1.250`: decimal comma, thousands point (at most three decimals, as `toLocaleString`). */
export const zahl = (n: number): string => GERMAN.format(n);

/** `415.000 €`. */
export const euro = (n: number): string => `${zahl(n)} €`;
