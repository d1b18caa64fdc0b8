import type { ListingPropertySnapshot } from './snapshot.js';

/** The address as a listing may show it, after the property's `location_precision`. */
export interface PublicAddress {
  /** `exact`: street and number as entered; `street`: the street without its number; `neighborhood`: null. */
  street: string | null;
  /** Only with `exact`: the number split off the street (`12a`, `12-14`), when there is one. */
  house_number: string | null;
  postal_code: string;
  city: string;
  country: string;
  precision: 'exact' | 'street' | 'neighborhood';
}

// A trailing house number: "Hauptstraße 12", "Hauptstr. 12a", "Am Markt 3-5", "Ring 7 / 2".
const HOUSE_NUMBER = /\s+(\d+\s*[a-zA-Z]?(?:\s*[-/]\s*\d+\s*[a-zA-Z]?)?)$/;

/** Splits `Hauptstraße 12a` into `Hauptstraße` and `12a`; a street without a trailing number stays whole. */
export function splitStreet(street: string): { name: string; number: string | null } {
  const match = HOUSE_NUMBER.exec(street.trim());
  if (!match) return { name: street.trim(), number: null };
  return { name: street.trim().slice(0, match.index).trim(), number: match[1].replace(/\s+/g, '') };
}

export function publicAddress(address: ListingPropertySnapshot['address']): PublicAddress {
  const base = { postal_code: address.postal_code, city: address.city, country: address.country, precision: address.location_precision };
  if (address.location_precision === 'neighborhood' || !address.street) return { ...base, street: null, house_number: null };
  const { name, number } = splitStreet(address.street);
  if (address.location_precision === 'street') return { ...base, street: name, house_number: null };
  return { ...base, street: name, house_number: number };
}

/** One line for display: `Hauptstraße 12a, 10115 Berlin`, `Hauptstraße, 10115 Berlin` or `10115 Berlin`. */
export function formatPublicAddress(address: PublicAddress): string {
  const street = [address.street, address.house_number].filter(Boolean).join(' ');
  const place = `${address.postal_code} ${address.city}`;
  return street ? `${street}, ${place}` : place;
}
