import type { ErrorDetail } from '@platform/http';
import type { FeedbackInterest } from './feedback.js';

/** An inquiry of a feedback document that can become a prospect and an inquiry (the limits of `InteressentAnlegen` and `AnfrageAnlegen`). */
export interface CheckedInterest {
  source: FeedbackInterest;
  email: string;
  nachname: string;
  nachricht?: string;
  prospect: { vorname?: string; nachname: string; email: string; telefon?: string };
}

// The prospects API's limits (prospects/schemas.ts): names 100, e-mail 254, telephone as its pattern.
const NAME_MAX = 100;
const EMAIL_MAX = 254;
const MESSAGE_MAX = 5000;
const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/;
const TELEFON = /^[+0-9 ()/-]{3,40}$/;
/** The consent texts a portal may hand over as `user_defined_extend/feld` (the schema has no element for it). */
const CONSENT_FIELDS = [
  'einwilligung',
  'einwilligungstext',
  'datenschutz',
  'datenschutzhinweis',
  'datenschutzerklaerung',
];
const WORDING_MAX = 500;

/**
 * The inquiry checked, its problems added to `details`: an e-mail address is required (the
 * prospect is found or made by it), a surname (`nachname`, else `firma`), and the limits of the
 * API. A telephone number that does not fit the API's pattern is left out, not refused.
 */
export function checkedInterest(source: FeedbackInterest, details: ErrorDetail[]): CheckedInterest {
  const field = (name: string) => `${source.path}/${name}`;
  const email = source.email ?? '';
  const nachname = source.nachname ?? source.firma ?? '';
  if (email === '') details.push({ field: field('email'), reason: 'missing' });
  else if (email.length > EMAIL_MAX)
    details.push({ field: field('email'), reason: 'too_long', constraint: { max_length: EMAIL_MAX } });
  else if (!EMAIL.test(email))
    details.push({ field: field('email'), reason: 'invalid_format', constraint: { format: 'email' } });
  if (nachname === '') details.push({ field: field('nachname'), reason: 'missing' });
  for (const [name, value] of [
    ['nachname', nachname],
    ['vorname', source.vorname ?? ''],
  ] as const)
    if (value.length > NAME_MAX)
      details.push({ field: field(name), reason: 'too_long', constraint: { max_length: NAME_MAX } });
  if ((source.anfrage ?? '').length > MESSAGE_MAX)
    details.push({ field: field('anfrage'), reason: 'too_long', constraint: { max_length: MESSAGE_MAX } });
  const telefon = [source.tel, source.mobil].find((value) => value !== undefined && TELEFON.test(value));
  return {
    source,
    email,
    nachname,
    nachricht: source.anfrage,
    prospect: {
      nachname,
      email,
      ...(source.vorname !== undefined ? { vorname: source.vorname } : {}),
      ...(telefon !== undefined ? { telefon } : {}),
    },
  };
}

/** The consent's words: the portal's consent or privacy text from the document, else a sentence naming the portal. */
export function consentWording(
  portal: string,
  interest: CheckedInterest,
  objectExtras: Record<string, string> = {},
): string {
  const given = CONSENT_FIELDS.map((name) => interest.source.extras[name] ?? objectExtras[name]).find(Boolean);
  const wording =
    given ??
    `Anfrage über ${portal} zu diesem Objekt: Einwilligung in die Kontaktaufnahme zur Beantwortung der Anfrage.`;
  return wording.length > WORDING_MAX ? `${wording.slice(0, WORDING_MAX - 1)}…` : wording;
}
