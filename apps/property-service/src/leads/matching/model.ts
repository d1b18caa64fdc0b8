import type { Prisma } from '@platform/db';
import { atLeast, atMost, defineModel, score, type ScoreResult } from '@platform/scoring';
import { normaliseLocation } from '../prospects/index.js';
import { euro, zahl } from './german.js';
import { locationKeys } from './location.js';

type PropertyRow = Prisma.PropertyGetPayload<object>;
type ProspectRow = Prisma.ProspectGetPayload<object>;

export interface InquirySubject {
  property: PropertyRow;
  prospect: ProspectRow;
}

export const PRICE_TOLERANCE = 0.2; // up to 20 % above budget still earns points; beyond that: knockout
export const ROOMS_TOLERANCE = 0.5;
export const AREA_TOLERANCE = 0.3;

function wantsRent(p: ProspectRow): boolean {
  return p.profile_marketing === 'rent';
}

function priceAndBudget({ property, prospect }: InquirySubject): {
  price: number | null;
  budget: number | null;
  label: string;
} {
  return wantsRent(prospect)
    ? { price: property.cold_rent_eur, budget: prospect.profile_cold_rent_max, label: 'Kaltmiete' }
    : { price: property.purchase_price_eur, budget: prospect.profile_purchase_price_max, label: 'Kaufpreis' };
}

/** The weights and rules for inquiries about properties; the version is stored with every score. */
export const INQUIRY_MODEL = defineModel<InquirySubject>({
  version: 'anfrage-2026-11b', // b: a city's search finds its districts (location.ts)
  knockouts: [
    {
      key: 'status',
      check: ({ property }) =>
        ['active', 'reserved'].includes(property.status)
          ? null
          : `Immobilie ist nicht in der Vermarktung (Status ${property.status}).`,
    },
    {
      key: 'objektart',
      check: ({ property, prospect }) =>
        prospect.has_profile && prospect.profile_types.length > 0 && !prospect.profile_types.includes(property.type)
          ? `Objektart ${property.type} ist nicht gesucht (${prospect.profile_types.join(', ')}).`
          : null,
    },
    {
      key: 'vermarktung',
      check: (subject) => {
        const { price, label } = priceAndBudget(subject);
        return subject.prospect.has_profile && price === null
          ? `Kein ${label}: das Objekt wird nicht so angeboten, wie gesucht.`
          : null;
      },
    },
    {
      key: 'preis_weit_ueber_budget',
      check: (subject) => {
        const { price, budget, label } = priceAndBudget(subject);
        return price !== null && budget !== null && price > budget * (1 + PRICE_TOLERANCE)
          ? `${label} ${euro(price)} liegt mehr als ${zahl(PRICE_TOLERANCE * 100)} % über dem Budget von ${euro(budget)}.`
          : null;
      },
    },
  ],
  criteria: [
    {
      key: 'preis',
      weight: 40,
      assess: (subject) => {
        const { price, budget, label } = priceAndBudget(subject);
        if (budget === null) return { fraction: 1, reason: 'Kein Budget angegeben.' };
        if (price === null) return { fraction: 0, reason: `Kein ${label} angegeben.` };
        return {
          fraction: atMost(price, budget, PRICE_TOLERANCE),
          reason: `${label} ${euro(price)} bei einem Budget von ${euro(budget)} (Toleranz ${zahl(PRICE_TOLERANCE * 100)} %).`,
        };
      },
    },
    {
      key: 'lage',
      weight: 25,
      assess: ({ property, prospect }) => {
        if (prospect.profile_locations.length === 0) return { fraction: 1, reason: 'Kein Ort angegeben.' };
        const keys = new Set(locationKeys(property));
        const hit = prospect.profile_locations.some((o) => keys.has(normaliseLocation(o)));
        return {
          fraction: hit ? 1 : 0,
          reason: hit
            ? `${property.address_postal_code} ${property.address_city} liegt in den gesuchten Orten.`
            : `${property.address_city} gehört nicht zu: ${prospect.profile_locations.join(', ')}.`,
        };
      },
    },
    {
      key: 'zimmer',
      weight: 20,
      assess: ({ property, prospect }) => {
        if (prospect.profile_rooms_min === null) return { fraction: 1, reason: 'Keine Mindestzimmerzahl angegeben.' };
        if (property.rooms === null) return { fraction: 0.5, reason: 'Zimmerzahl des Objekts unbekannt.' };
        return {
          fraction: atLeast(property.rooms, prospect.profile_rooms_min, ROOMS_TOLERANCE),
          reason: `${zahl(property.rooms)} Zimmer bei mindestens ${zahl(prospect.profile_rooms_min)} gewünscht.`,
        };
      },
    },
    {
      key: 'wohnflaeche',
      weight: 15,
      assess: ({ property, prospect }) => {
        if (prospect.profile_living_area_min === null)
          return { fraction: 1, reason: 'Keine Mindestwohnfläche angegeben.' };
        if (property.living_area_sqm === null) return { fraction: 0.5, reason: 'Wohnfläche des Objekts unbekannt.' };
        return {
          fraction: atLeast(property.living_area_sqm, prospect.profile_living_area_min, AREA_TOLERANCE),
          reason: `${zahl(property.living_area_sqm)} m² bei mindestens ${zahl(prospect.profile_living_area_min)} m² gewünscht.`,
        };
      },
    },
  ],
});

/** The German explanation stored with the inquiry and returned by the API. */
export function toInquiryScore(result: ScoreResult) {
  return {
    gesamt: result.total,
    gewichtungsversion: result.weights_version,
    ausgeschlossen: result.knocked_out,
    ausschlussgruende: result.knockouts.map((k) => ({ kriterium: k.key, grund: k.reason })),
    kriterien: result.criteria.map((c) => ({
      kriterium: c.key,
      gewicht: c.weight,
      punkte: c.points,
      ergebnis: c.outcome === 'met' ? ('erfuellt' as const) : ('abweichend' as const),
      grund: c.reason,
    })),
  };
}

export type InquiryScore = ReturnType<typeof toInquiryScore>;

export function scoreInquiry(subject: InquirySubject): InquiryScore {
  return toInquiryScore(score(INQUIRY_MODEL, subject));
}
