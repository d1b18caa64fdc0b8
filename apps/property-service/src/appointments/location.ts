import { splitStreet } from '../street.js';

interface AddressColumns {
  address_street: string | null;
  address_house_number: string | null;
  address_postal_code: string;
  address_city: string;
}

/**
 * Where a viewing takes place, for its calendar event: the street as entered (with its house
 * number and any addition such as "Hinterhaus", which tells the visitor where to ring), the
 * number appended when it was given apart, then postal code and city. The full address whatever
 * the property's `location_precision`: that rule is for publication, while the event goes only to
 * the prospect who booked the viewing. RFC 5545 escaping (`,` `;` `\` and line breaks) is the
 * calendar writer's.
 */
export function viewingLocation(address: AddressColumns): string {
  const place = `${address.address_postal_code} ${address.address_city}`;
  const street = address.address_street?.trim();
  if (!street) return place;
  const number = address.address_house_number?.trim();
  const withNumber = number && splitStreet(street).number === null ? `${street} ${number}` : street;
  return `${withNumber}, ${place}`;
}
