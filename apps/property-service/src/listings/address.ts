import { houseNumberOf, splitStreet } from '../street.js';
import type { ListingPropertySnapshot } from './snapshot.js';

/** The address as a listing may show it, after the property's `location_precision`. */
export interface PublicAddress {
  /** `exact` and `street`: the street's name, never its number or an addition; `neighborhood`: null. */
  street: string | null;
  /** Only with `exact`: the house number (`12a`, `3-5`), when there is one. */
  house_number: string | null;
  postal_code: string;
  city: string;
  country: string;
  precision: 'exact' | 'street' | 'neighborhood';
}

/**
 * What every output (website feed, OpenImmo, exposé) publishes of an address: the street's name
 * from `street` precision on, its house number only at `exact`, an addition ("Hinterhaus",
 * "2. OG links") never. A snapshot taken before the number was stored apart is split here.
 */
export function publicAddress(address: ListingPropertySnapshot['address']): PublicAddress {
  const base = {
    postal_code: address.postal_code,
    city: address.city,
    country: address.country,
    precision: address.location_precision,
  };
  if (address.location_precision === 'neighborhood' || !address.street)
    return { ...base, street: null, house_number: null };
  const parts = splitStreet(address.street);
  if (address.location_precision === 'street') return { ...base, street: parts.name, house_number: null };
  return { ...base, street: parts.name, house_number: houseNumberOf(address.street, address.house_number) };
}

/** One line for display: `Hauptstraße 12a, 10115 Berlin`, `Hauptstraße, 10115 Berlin` or `10115 Berlin`. */
export function formatPublicAddress(address: PublicAddress): string {
  const street = [address.street, address.house_number].filter(Boolean).join(' ');
  const place = `${address.postal_code} ${address.city}`;
  return street ? `${street}, ${place}` : place;
}
