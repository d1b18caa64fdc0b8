// German presentation of invoice figures: exact, from integer cents and decimal strings (no floats).

/** `123456` → `1.234,56 €`. */
export function euros(cents: number | bigint): string {
  const value = BigInt(cents);
  const sign = value < 0n ? '-' : '';
  const abs = value < 0n ? -value : value;
  const whole = (abs / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${sign}${whole},${(abs % 100n).toString().padStart(2, '0')} €`;
}

/** A decimal string (`1234.500000`) in German notation without trailing zeros: `1.234,5`. */
export function decimal(text: string): string {
  const [whole, fraction = ''] = text.split('.');
  const trimmed = fraction.replace(/0+$/, '');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return trimmed ? `${grouped},${trimmed}` : grouped;
}

/** `2026-11-23` → `23.11.2026`. */
export function germanDate(isoDate: string): string {
  const [year, month, day] = isoDate.split('-');
  return `${day}.${month}.${year}`;
}

/** Basis points as a German percentage: `1900` → `19 %`, `1650` → `16,5 %`. */
export function percent(basisPoints: number): string {
  return `${decimal((basisPoints / 100).toFixed(2))} %`;
}
