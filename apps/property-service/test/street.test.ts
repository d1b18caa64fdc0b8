import { describe, expect, it } from 'vitest';
import { publicAddress } from '../src/listings/address.js';
import { splitStreet } from '../src/street.js';

// [as entered, the street's name, the house number]
const CASES: [string, string, string | null][] = [
  ['12 Baker Street', 'Baker Street', '12'],
  ['221B Baker Street', 'Baker Street', '221B'],
  ['1600 Pennsylvania Avenue NW', 'Pennsylvania Avenue NW', '1600'],
  ['Flat 3, 12 Baker Street', 'Baker Street', '12'],
  ['Hauptstraße 5, Hinterhaus', 'Hauptstraße', '5'],
  ['Hauptstr. 5 (2. OG links)', 'Hauptstr.', '5'],
  ['Hauptstraße 5 Hinterhaus', 'Hauptstraße', '5'],
  ['Rheinufer 12a', 'Rheinufer', '12a'],
  ['Rheinufer 12 a', 'Rheinufer', '12a'],
  ['Am Markt 3-5', 'Am Markt', '3-5'],
  ['Am Markt 3 – 5', 'Am Markt', '3-5'],
  ['Ring 7/2', 'Ring', '7/2'],
  ['Straße des 17. Juni 100', 'Straße des 17. Juni', '100'],
  ['Straße des 17. Juni', 'Straße des 17. Juni', null],
  ['Platz der Republik 1', 'Platz der Republik', '1'],
  ['Hauptstraße Nr. 7', 'Hauptstraße', '7'],
  ['Lindenweg', 'Lindenweg', null],
  ['Lindenweg, Hinterhaus', 'Lindenweg', null],
  ['  Unter   den Linden 77  ', 'Unter den Linden', '77'],
];

describe('splitStreet: the house number apart from the street', () => {
  for (const [entered, name, number] of CASES) {
    it(`"${entered}" → "${name}" / ${number ?? 'no number'}`, () => {
      expect(splitStreet(entered)).toEqual({ name, number });
    });
  }
});

describe('publicAddress: what every output publishes at each precision', () => {
  const address = (
    street: string,
    location_precision: 'exact' | 'street' | 'neighborhood',
    house_number: string | null = null,
  ) => publicAddress({ street, house_number, postal_code: '10115', city: 'Berlin', country: 'DE', location_precision });

  for (const [entered, name, number] of CASES) {
    it(`"${entered}": street precision shows no digit of the house number, exact shows it, neighborhood no street`, () => {
      const atStreet = address(entered, 'street');
      expect(atStreet.street).toBe(name);
      expect(atStreet.house_number).toBeNull();
      if (number) expect(atStreet.street).not.toMatch(new RegExp(`(^|\\s)${number.replace(/[-/]/g, '\\$&')}(\\s|$)`));
      for (const addition of ['Hinterhaus', 'OG', 'Flat']) expect(atStreet.street).not.toContain(addition);
      expect(address(entered, 'exact')).toMatchObject({ street: name, house_number: number });
      expect(address(entered, 'neighborhood')).toMatchObject({
        street: null,
        house_number: null,
        postal_code: '10115',
        city: 'Berlin',
      });
    });
  }

  it('a house number given apart wins over a split; a snapshot without the field is split when read', () => {
    expect(address('Hauptstraße', 'exact', '5a')).toMatchObject({ street: 'Hauptstraße', house_number: '5a' });
    const old = publicAddress({
      street: 'Am Markt 3-5',
      postal_code: '10115',
      city: 'Berlin',
      country: 'DE',
      location_precision: 'exact',
    } as never);
    expect(old).toMatchObject({ street: 'Am Markt', house_number: '3-5' });
  });
});
