import { describe, expect, it } from 'vitest';
import { ApiError } from '@platform/http';
import {
  ENERGY_RULE_VERSION,
  REQUIRED_ENERGY_FIELDS,
  assertPublishable,
  energyCertificateProblems,
} from '../src/listings/energy-rule.js';
import type { ListingPropertySnapshot } from '../src/listings/snapshot.js';

type PropertyType = ListingPropertySnapshot['type'];
type Certificate = NonNullable<ListingPropertySnapshot['energy_certificate']>;

const TODAY = '2025-06-15';

const certificate = (over: Partial<Certificate> = {}): Certificate => ({
  type: 'demand',
  final_energy_demand_kwh: 92.4,
  energy_source: 'Gas',
  system_year: 2010,
  efficiency_class: 'C',
  valid_until: '2030-01-31',
  exemption: null,
  ...over,
});

const property = (type: PropertyType, over: Partial<ListingPropertySnapshot> = {}): ListingPropertySnapshot => ({
  id: 'prop_1',
  type,
  title: 'Zwei Zimmer',
  description: null,
  address: {
    street: 'Hauptstraße 12',
    house_number: '12',
    postal_code: '10115',
    city: 'Berlin',
    country: 'DE',
    location_precision: 'exact',
  },
  living_area_sqm: 60,
  lot_size_sqm: null,
  rooms: 2,
  year_built: 1998,
  floor: 1,
  purchase_price_eur: 300_000,
  cold_rent_eur: null,
  service_charges_eur: null,
  available_from: null,
  energy_certificate: certificate(),
  commission: null,
  ...over,
});

const missing = (...fields: string[]) => fields.map((field) => ({ field, reason: 'missing' }));

const RESIDENTIAL_FIELDS = [
  'energy_certificate.type',
  'energy_certificate.final_energy_demand_kwh',
  'energy_certificate.energy_source',
  'energy_certificate.efficiency_class',
  'year_built',
];
const COMMERCIAL_FIELDS = RESIDENTIAL_FIELDS.slice(0, 3);
const REQUIRED: Record<PropertyType, string[]> = {
  apartment: RESIDENTIAL_FIELDS,
  house: RESIDENTIAL_FIELDS,
  commercial: COMMERCIAL_FIELDS,
  land: [],
  parking: [],
};
const TYPES = Object.keys(REQUIRED) as PropertyType[];

/** Clears one required field (a certificate field or the top-level `year_built`). */
function without(type: PropertyType, field: string): ListingPropertySnapshot {
  if (field === 'year_built') return property(type, { year_built: null });
  const key = field.replace('energy_certificate.', '') as keyof Certificate;
  return property(type, { energy_certificate: certificate({ [key]: null }) });
}

describe('energy-certificate rule (GEG §87)', () => {
  it('is versioned', () => {
    expect(ENERGY_RULE_VERSION).toBe('geg-87/1');
  });

  it('requires exactly the fields of the design document, per type', () => {
    const table = Object.fromEntries(TYPES.map((type) => [type, REQUIRED_ENERGY_FIELDS[type].map((f) => f.field)]));
    expect(table).toEqual(REQUIRED);
  });

  it.each(TYPES)('%s with every field stated has no problem', (type) => {
    expect(energyCertificateProblems(property(type), TODAY)).toEqual([]);
  });

  it.each(TYPES)('%s without a certificate object: every required field is missing, in order', (type) => {
    expect(energyCertificateProblems(property(type, { energy_certificate: null, year_built: null }), TODAY)).toEqual(
      missing(...REQUIRED[type]),
    );
  });

  it.each(TYPES)('%s with an empty certificate object: every required field is missing, in order', (type) => {
    const empty: Certificate = {
      type: null,
      final_energy_demand_kwh: null,
      energy_source: null,
      system_year: null,
      efficiency_class: null,
      valid_until: null,
      exemption: null,
    };
    expect(energyCertificateProblems(property(type, { energy_certificate: empty, year_built: null }), TODAY)).toEqual(
      missing(...REQUIRED[type]),
    );
  });

  const singleMissing = TYPES.flatMap((type) => RESIDENTIAL_FIELDS.map((field) => [type, field] as const));
  it.each(singleMissing)('%s without %s: exactly that detail when the type requires it', (type, field) => {
    const expected = REQUIRED[type].includes(field) ? missing(field) : [];
    expect(energyCertificateProblems(without(type, field), TODAY)).toEqual(expected);
  });

  it('a certificate field given as an empty string counts as missing', () => {
    const p = property('apartment', { energy_certificate: certificate({ energy_source: '  ' }) });
    expect(energyCertificateProblems(p, TODAY)).toEqual(missing('energy_certificate.energy_source'));
  });

  it('system_year and valid_until are not required', () => {
    const p = property('house', { energy_certificate: certificate({ system_year: null, valid_until: null }) });
    expect(energyCertificateProblems(p, TODAY)).toEqual([]);
  });

  const exemptions = (['heritage_protection', 'small_building'] as const).flatMap((exemption) =>
    TYPES.map((type) => [exemption, type] as const),
  );
  it.each(exemptions)('exemption %s: a %s needs nothing else, even expired and incomplete', (exemption, type) => {
    const exempt = {
      type: null,
      final_energy_demand_kwh: null,
      energy_source: null,
      system_year: null,
      efficiency_class: null,
      valid_until: '2000-01-01',
      exemption,
    } satisfies Certificate;
    expect(energyCertificateProblems(property(type, { energy_certificate: exempt, year_built: null }), TODAY)).toEqual(
      [],
    );
  });

  it.each(['apartment', 'house', 'commercial'] as const)('an expired certificate of a %s is out_of_range', (type) => {
    const p = property(type, { energy_certificate: certificate({ valid_until: '2025-06-14' }) });
    expect(energyCertificateProblems(p, TODAY)).toEqual([
      { field: 'energy_certificate.valid_until', reason: 'out_of_range' },
    ]);
  });

  it('a certificate valid until today is still valid', () => {
    const p = property('apartment', { energy_certificate: certificate({ valid_until: TODAY }) });
    expect(energyCertificateProblems(p, TODAY)).toEqual([]);
  });

  it.each(['land', 'parking'] as const)('an expired certificate of a %s does not matter', (type) => {
    const p = property(type, { energy_certificate: certificate({ valid_until: '2001-01-01' }) });
    expect(energyCertificateProblems(p, TODAY)).toEqual([]);
  });

  it('missing fields come first, then the expiry, all in one list', () => {
    const p = property('house', {
      year_built: null,
      energy_certificate: certificate({ type: null, efficiency_class: null, valid_until: '2020-12-31' }),
    });
    expect(energyCertificateProblems(p, TODAY)).toEqual([
      ...missing('energy_certificate.type', 'energy_certificate.efficiency_class', 'year_built'),
      { field: 'energy_certificate.valid_until', reason: 'out_of_range' },
    ]);
  });

  it('refuses a today that is not a date', () => {
    expect(() => energyCertificateProblems(property('house'), '15.06.2025')).toThrow(TypeError);
  });
});

describe('assertPublishable', () => {
  it('returns when there is no problem', () => {
    expect(() => assertPublishable(property('apartment'), TODAY)).not.toThrow();
    expect(() => assertPublishable(property('land', { energy_certificate: null }), TODAY)).not.toThrow();
  });

  it('throws one 422 validation_failed with every problem as a detail', () => {
    const p = property('apartment', {
      energy_certificate: certificate({ energy_source: null, valid_until: '2024-01-01' }),
      year_built: null,
    });
    let thrown: unknown;
    try {
      assertPublishable(p, TODAY);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    const error = thrown as ApiError;
    expect(error.code).toBe('validation_failed');
    expect(error.status).toBe(422);
    expect(error.details).toEqual([
      ...missing('energy_certificate.energy_source', 'year_built'),
      { field: 'energy_certificate.valid_until', reason: 'out_of_range' },
    ]);
  });
});
