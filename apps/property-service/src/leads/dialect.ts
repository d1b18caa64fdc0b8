import { ApiError, type ErrorCode } from '@platform/http';

/**
 * The messages of the leads API, in one place: services raise a key, this catalogue gives the
 * error's code and its text in both languages (the error handler of `@platform/http` answers
 * `/leads/` with the German one, `messageDe`). A new message is added here, never in a service.
 */
export const LEADS_MESSAGES = {
  prospect_not_found: {
    code: 'not_found',
    en: 'No prospect with this id.',
    de: 'Kein Interessent mit dieser ID.',
  },
  inquiry_not_found: {
    code: 'not_found',
    en: 'No inquiry with this id.',
    de: 'Keine Anfrage mit dieser ID.',
  },
  /** A path's `immobilieId` (matching). */
  property_not_found: {
    code: 'not_found',
    en: 'No property with this id.',
    de: 'Keine Immobilie mit dieser ID.',
  },
  /** The `immobilie_id` of a new inquiry. */
  inquiry_property_not_found: {
    code: 'not_found',
    en: 'No property with the immobilie_id.',
    de: 'Keine Immobilie mit dieser immobilie_id.',
  },
  /** An inquiry from a prospect who was anonymised or erased. */
  prospect_anonymised: {
    code: 'conflict',
    en: 'The prospect was anonymised.',
    de: 'Der Interessent wurde anonymisiert.',
  },
  /** A change of a prospect who was anonymised or erased. */
  prospect_anonymised_unchangeable: {
    code: 'conflict',
    en: 'The prospect was anonymised.',
    de: 'Der Interessent wurde anonymisiert und kann nicht mehr geändert werden.',
  },
  consent_not_found: {
    code: 'not_found',
    en: 'No consent with this id for this prospect.',
    de: 'Keine Einwilligung mit dieser ID bei diesem Interessenten.',
  },
  /** Confirming (double opt-in) a consent that was withdrawn. */
  consent_withdrawn: {
    code: 'conflict',
    en: 'The consent was withdrawn and cannot be confirmed.',
    de: 'Die Einwilligung wurde widerrufen und kann nicht mehr bestätigt werden.',
  },
  /** A new marketing consent of a prospect who objected to marketing (Art. 21). */
  prospect_objected: {
    code: 'conflict',
    en: 'The prospect objected to marketing: no marketing consent is accepted.',
    de: 'Der Interessent hat der Werbung widersprochen: eine Einwilligung in Marketing wird nicht angenommen.',
  },
} as const satisfies Record<string, { code: ErrorCode; en: string; de: string }>;

export type LeadsMessage = keyof typeof LEADS_MESSAGES;

/** The error of a leads message: its code, its English message and its German one. */
export function leadsError(key: LeadsMessage): ApiError {
  const { code, en, de } = LEADS_MESSAGES[key];
  return new ApiError(code, { message: en, messageDe: de });
}
