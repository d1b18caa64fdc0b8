// Small XML and number helpers of the CII export: text escaping, elements, exact decimal amounts.

/** Escapes text and attribute values; drops the control characters XML 1.0 forbids. */
export function xmlEscape(value: string): string {
  return (
    value
      // eslint-disable-next-line no-control-regex -- exactly the characters XML 1.0 does not allow
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
  );
}

type Child = string | null | undefined | false;

/** An element whose children are already XML; an element without children is left out. */
export function el(name: string, ...children: Child[]): string {
  const inner = children.filter((c): c is string => typeof c === 'string' && c !== '').join('');
  return inner === '' ? '' : `<${name}>${inner}</${name}>`;
}

/** An element with escaped text content and optional attributes; left out when the text is empty. */
export function text(name: string, value: string | null | undefined, attrs: Record<string, string> = {}): string {
  if (value == null || value.trim() === '') return '';
  const attributes = Object.entries(attrs)
    .map(([k, v]) => ` ${k}="${xmlEscape(v)}"`)
    .join('');
  return `<${name}${attributes}>${xmlEscape(value)}</${name}>`;
}

/** `YYYY-MM-DD` as a `udt:DateTimeString` of format 102 (`YYYYMMDD`). */
export function date(name: string, isoDate: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(isoDate)) throw new Error(`not a date (YYYY-MM-DD): ${isoDate}`);
  return `<${name}><udt:DateTimeString format="102">${isoDate.replace(/-/g, '')}</udt:DateTimeString></${name}>`;
}

/** `YYYY-MM-DD` as a `qdt:DateTimeString` of format 102 (a referenced document's date, BT-26). */
export function formattedDate(name: string, isoDate: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(isoDate)) throw new Error(`not a date (YYYY-MM-DD): ${isoDate}`);
  return `<${name}><qdt:DateTimeString format="102">${isoDate.replace(/-/g, '')}</qdt:DateTimeString></${name}>`;
}

/** Integer hundredths (cents, basis points) as a decimal with 2 places: 123456 → `1234.56`, -5 → `-0.05`. */
export function hundredths(value: number): string {
  if (!Number.isSafeInteger(value)) throw new Error(`not an integer amount: ${value}`);
  const digits = String(Math.abs(value)).padStart(3, '0');
  return `${value < 0 ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/**
 * A decimal string of cents as a unit price in euros, rounded half up to at most 4 places and
 * with at least 2: `1500` → `15.00`, `12.5` → `0.125`, `0.123456` → `0.0012`.
 */
export function centsPrice(cents: string): string {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(cents.trim());
  if (!match) throw new Error(`not a unit price in cents: ${cents}`);
  const [, whole, fraction = ''] = match;
  // Ten-thousandths of a euro are hundredths of a cent.
  const scaled = BigInt(whole + (fraction + '00').slice(0, 2)) + (Number(fraction[2] ?? '0') >= 5 ? 1n : 0n);
  const digits = scaled.toString().padStart(5, '0');
  const decimals = digits.slice(-4).replace(/0{1,2}$/, '');
  return `${digits.slice(0, -4)}.${decimals}`;
}

/** A quantity as given (a decimal string), checked. */
export function quantity(value: string): string {
  const q = value.trim();
  if (!/^-?\d+(\.\d+)?$/.test(q)) throw new Error(`not a quantity: ${value}`);
  return q;
}
