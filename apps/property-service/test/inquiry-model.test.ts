import { describe, expect, it } from 'vitest';
import type { InquirySubject } from '../src/leads/matching/model.js';
import { scoreInquiry } from '../src/leads/matching/model.js';

const property = (over: Partial<InquirySubject['property']> = {}) =>
  ({
    status: 'active',
    type: 'apartment',
    address_city: 'Berlin',
    address_postal_code: '10115',
    purchase_price_eur: 400_000,
    cold_rent_eur: null,
    rooms: 3,
    living_area_sqm: 80,
    ...over,
  }) as InquirySubject['property'];

const prospect = (over: Partial<InquirySubject['prospect']> = {}) =>
  ({
    has_profile: true,
    profile_marketing: 'sale',
    profile_types: ['apartment'],
    profile_locations: ['Berlin'],
    profile_rooms_min: 3,
    profile_purchase_price_max: 400_000,
    profile_cold_rent_max: null,
    profile_living_area_min: 80,
    ...over,
  }) as InquirySubject['prospect'];

const points = (result: ReturnType<typeof scoreInquiry>) =>
  Object.fromEntries(result.kriterien.map((k) => [k.kriterium, k.punkte]));

describe('inquiry scoring (weights anfrage-2026-11b: Preis 40, Lage 25, Zimmer 20, Wohnfläche 15)', () => {
  it('a perfect match scores 100, every criterion erfuellt', () => {
    const result = scoreInquiry({ property: property(), prospect: prospect() });
    expect(result.gesamt).toBe(100);
    expect(result.gewichtungsversion).toBe('anfrage-2026-11b');
    expect(result.kriterien.map((k) => [k.kriterium, k.gewicht, k.punkte, k.ergebnis])).toEqual([
      ['preis', 40, 40, 'erfuellt'],
      ['lage', 25, 25, 'erfuellt'],
      ['zimmer', 20, 20, 'erfuellt'],
      ['wohnflaeche', 15, 15, 'erfuellt'],
    ]);
  });

  it('Preis: 440,000 € for a budget of 400,000 € is 10 % over a 20 % tolerance → 20 of 40', () => {
    expect(
      points(scoreInquiry({ property: property({ purchase_price_eur: 440_000 }), prospect: prospect() })).preis,
    ).toBe(20);
  });

  it('Lage: a postal-code prefix counts, another city earns 0', () => {
    expect(
      points(scoreInquiry({ property: property(), prospect: prospect({ profile_locations: ['101'] }) })).lage,
    ).toBe(25);
    const elsewhere = scoreInquiry({
      property: property({ address_city: 'Hamburg', address_postal_code: '20095' }),
      prospect: prospect(),
    });
    expect(points(elsewhere).lage).toBe(0);
    expect(elsewhere.kriterien.find((k) => k.kriterium === 'lage')!.grund).toBe('Hamburg gehört nicht zu: Berlin.');
  });

  it('Lage: a search for a city matches its districts (hyphen or space); a district matches neither another district nor the city', () => {
    const lage = (city: string, orte: string[]) =>
      points(
        scoreInquiry({ property: property({ address_city: city }), prospect: prospect({ profile_locations: orte }) }),
      ).lage;
    expect(lage('Berlin-Mitte', ['Berlin'])).toBe(25);
    expect(lage('Berlin Mitte', [' berlin '])).toBe(25);
    expect(lage('Frankfurt am Main', ['Frankfurt'])).toBe(25);
    expect(lage('Berlin-Mitte', ['Berlin Mitte'])).toBe(25);
    expect(lage('Berlin Mitte', ['berlin-mitte'])).toBe(25);
    expect(lage('Berlin-Pankow', ['Berlin-Mitte'])).toBe(0);
    expect(lage('Berlin', ['Berlin-Mitte'])).toBe(0);
    expect(lage('Berlin-Mitte', ['Mitte'])).toBe(0);
    expect(lage('Berlinchen', ['Berlin'])).toBe(0);
  });

  it('Zimmer: 2 rooms for at least 3 with 50 % tolerance → 2/3 short by 1/1.5 → 1/3 of 20 ≈ 7', () => {
    expect(points(scoreInquiry({ property: property({ rooms: 2 }), prospect: prospect() })).zimmer).toBe(7);
  });

  it('Wohnfläche: 68 m² for at least 80 m² with 30 % tolerance → 0.5 → 7.5 of 15, rounded so parts sum to the total', () => {
    const result = scoreInquiry({ property: property({ living_area_sqm: 68 }), prospect: prospect() });
    expect(result.gesamt).toBe(93); // 40 + 25 + 20 + 7.5 → 92.5 → 93
    expect(result.kriterien.reduce((acc, k) => acc + k.punkte, 0)).toBe(result.gesamt);
  });

  it.each([
    ['wrong type', { property: property({ type: 'house' }), prospect: prospect() }, 'objektart'],
    [
      'price far above budget',
      { property: property({ purchase_price_eur: 481_000 }), prospect: prospect() },
      'preis_weit_ueber_budget',
    ],
    ['archived property', { property: property({ status: 'archived' }), prospect: prospect() }, 'status'],
    ['draft property', { property: property({ status: 'draft' }), prospect: prospect() }, 'status'],
    [
      'rent wanted, only for sale',
      { property: property(), prospect: prospect({ profile_marketing: 'rent', profile_cold_rent_max: 1500 }) },
      'vermarktung',
    ],
  ])('knockout: %s → 0 with the reason', (_name, subject, key) => {
    const result = scoreInquiry(subject as InquirySubject);
    expect(result.gesamt).toBe(0);
    expect(result.ausgeschlossen).toBe(true);
    expect(result.ausschlussgruende.map((g) => g.kriterium)).toContain(key);
    expect(result.kriterien.every((k) => k.punkte === 0)).toBe(true);
  });

  it('a prospect without a search profile is scored on the property only', () => {
    const none = prospect({
      has_profile: false,
      profile_types: [],
      profile_locations: [],
      profile_rooms_min: null,
      profile_purchase_price_max: null,
      profile_living_area_min: null,
    });
    expect(scoreInquiry({ property: property(), prospect: none }).gesamt).toBe(100);
    expect(scoreInquiry({ property: property({ status: 'sold' }), prospect: none }).gesamt).toBe(0);
  });
});

describe('the German explanations', () => {
  // A point between digits that is not a thousands separator (three digits after it): an English decimal.
  const ENGLISH_DECIMAL = /\d\.(?!\d{3}(?!\d))\d/;

  it('write every decimal with a comma, as Intl de-DE does (2,5 Zimmer next to 415.000 €)', () => {
    const texts = [
      { property: property({ rooms: 2.5, living_area_sqm: 52.75 }), prospect: prospect({ profile_rooms_min: 3.5 }) },
      {
        property: property({ rooms: 1.5, living_area_sqm: 1250.5, purchase_price_eur: 415_000.5 }),
        prospect: prospect({
          profile_rooms_min: 2.5,
          profile_living_area_min: 60.25,
          profile_purchase_price_max: 399_999.5,
        }),
      },
      { property: property({ purchase_price_eur: 1_000_000.25 }), prospect: prospect() },
      {
        property: property({ cold_rent_eur: 1234.5 }),
        prospect: prospect({ profile_marketing: 'rent', profile_cold_rent_max: 1000.75 }),
      },
    ].flatMap((subject) => {
      const result = scoreInquiry(subject as InquirySubject);
      return [...result.kriterien, ...result.ausschlussgruende].map((k) => k.grund);
    });
    for (const text of texts) expect(text).not.toMatch(ENGLISH_DECIMAL);
    expect(texts).toContain('2,5 Zimmer bei mindestens 3,5 gewünscht.');
    expect(texts).toContain('1.250,5 m² bei mindestens 60,25 m² gewünscht.');
    expect(texts).toContain('Kaufpreis 415.000,5 € bei einem Budget von 399.999,5 € (Toleranz 20 %).');
    expect(texts).toContain('Kaltmiete 1.234,5 € liegt mehr als 20 % über dem Budget von 1.000,75 €.');
  });
});
