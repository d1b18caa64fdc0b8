import { ApiError, type ErrorCode } from '@platform/http';

/** The messages of consents, restriction and objection, as `LEADS_MESSAGES` in `../dialect.ts` has them (code, English, German). */
export const CONSENT_MESSAGES = {
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
  /** A change of a prospect who was anonymised or erased. */
  prospect_anonymised_unchangeable: {
    code: 'conflict',
    en: 'The prospect was anonymised.',
    de: 'Der Interessent wurde anonymisiert und kann nicht mehr geändert werden.',
  },
} as const satisfies Record<string, { code: ErrorCode; en: string; de: string }>;

export function consentError(key: keyof typeof CONSENT_MESSAGES): ApiError {
  const { code, en, de } = CONSENT_MESSAGES[key];
  return new ApiError(code, { message: en, messageDe: de });
}
