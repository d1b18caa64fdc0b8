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

describe('inquiry scoring (weights anfrage-2026-11: Preis 40, Lage 25, Zimmer 20, Wohnfläche 15)', () => {
  it('a perfect match scores 100, every criterion erfuellt', () => {
    const result = scoreInquiry({ property: property(), prospect: prospect() });
    expect(result.gesamt).toBe(100);
    expect(result.gewichtungsversion).toBe('anfrage-2026-11');
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
