import { ApiError, type ErrorDetail } from '@platform/http';
import type { ListingPropertySnapshot } from './snapshot.js';

/**
 * The energy-certificate rule of GEG §87, checked when a listing is published (DESIGN §9).
 * Bump the version whenever the rule changes, so that a stored decision says which rule made it.
 */
export const ENERGY_RULE_VERSION = 'geg-87/1';

type PropertyType = ListingPropertySnapshot['type'];
type Certificate = NonNullable<ListingPropertySnapshot['energy_certificate']>;

/** One field the ad must state: its dotted path (the detail's `field`) and how to read it. */
interface RequiredField {
  field: string;
  value: (property: ListingPropertySnapshot, certificate: Certificate | null) => unknown;
}

const CERTIFICATE_TYPE: RequiredField = { field: 'energy_certificate.type', value: (_, c) => c?.type };
const ENERGY_VALUE: RequiredField = {
  field: 'energy_certificate.final_energy_demand_kwh',
  value: (_, c) => c?.final_energy_demand_kwh,
};
const ENERGY_SOURCE: RequiredField = { field: 'energy_certificate.energy_source', value: (_, c) => c?.energy_source };
const EFFICIENCY_CLASS: RequiredField = {
  field: 'energy_certificate.efficiency_class',
  value: (_, c) => c?.efficiency_class,
};
const YEAR_BUILT: RequiredField = { field: 'year_built', value: (p) => p.year_built };

/** What the ad must state, per property type, in the order the details are reported. */
export const REQUIRED_ENERGY_FIELDS: Readonly<Record<PropertyType, readonly RequiredField[]>> = {
  apartment: [CERTIFICATE_TYPE, ENERGY_VALUE, ENERGY_SOURCE, EFFICIENCY_CLASS, YEAR_BUILT],
  house: [CERTIFICATE_TYPE, ENERGY_VALUE, ENERGY_SOURCE, EFFICIENCY_CLASS, YEAR_BUILT],
  commercial: [CERTIFICATE_TYPE, ENERGY_VALUE, ENERGY_SOURCE],
  land: [],
  parking: [],
};

const DATE = /^\d{4}-\d{2}-\d{2}$/;

const isMissing = (value: unknown): boolean =>
  value === null || value === undefined || (typeof value === 'string' && value.trim() === '');

/**
 * Every reason the property may not be advertised yet: one `missing` detail per required field
 * that is not stated (in the order of `REQUIRED_ENERGY_FIELDS`), then `out_of_range` on
 * `energy_certificate.valid_until` when the certificate expired before `today` (a certificate
 * valid until today is still valid). An exemption means no certificate is required at all.
 * Pure: `today` (YYYY-MM-DD, the publisher's calendar day) is handed in.
 */
export function energyCertificateProblems(property: ListingPropertySnapshot, today: string): ErrorDetail[] {
  if (!DATE.test(today)) throw new TypeError(`today must be a date (YYYY-MM-DD), got ${JSON.stringify(today)}`);
  const required = REQUIRED_ENERGY_FIELDS[property.type];
  if (required.length === 0) return [];
  const certificate = property.energy_certificate ?? null;
  if (certificate?.exemption) return [];

  const details: ErrorDetail[] = required
    .filter((spec) => isMissing(spec.value(property, certificate)))
    .map((spec) => ({ field: spec.field, reason: 'missing' }));
  // Both are YYYY-MM-DD, so the string order is the calendar order.
  if (certificate?.valid_until && certificate.valid_until < today) {
    details.push({ field: 'energy_certificate.valid_until', reason: 'out_of_range' });
  }
  return details;
}

/** Throws 422 `validation_failed` with every problem of `energyCertificateProblems`, or returns when there is none. */
export function assertPublishable(property: ListingPropertySnapshot, today: string): void {
  const details = energyCertificateProblems(property, today);
  if (details.length > 0) {
    throw new ApiError('validation_failed', {
      message:
        'The listing cannot be published: the energy-certificate information required by GEG §87 is incomplete or expired.',
      messageDe:
        'Das Inserat kann nicht veröffentlicht werden: die nach GEG §87 vorgeschriebenen Angaben zum Energieausweis fehlen oder sind abgelaufen.',
      details,
    });
  }
}
