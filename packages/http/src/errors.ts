import { constraintInDialect, constraintMessage, type Constraint } from './detail-messages.js';

/** The two error dialects: English for the property API and agent platform, German for leads. */
export type Dialect = 'en' | 'de';

interface CodeSpec {
  status: number;
  de: string;
  en_message: string;
  de_message: string;
}

/** The closed set of error codes (DESIGN §6). The code decides status and body. */
export const ERROR_CODES = {
  api_key_missing: {
    status: 401,
    de: 'api_key_fehlt',
    en_message: 'The apikey header is missing.',
    de_message: 'Der Header apikey fehlt.',
  },
  api_key_invalid: {
    status: 401,
    de: 'api_key_ungueltig',
    en_message: 'The API key is not valid.',
    de_message: 'Der API-Schlüssel ist ungültig.',
  },
  api_key_in_query: {
    status: 400,
    de: 'api_key_in_url',
    en_message: 'API keys are accepted only in the apikey header, never in the URL.',
    de_message: 'API-Schlüssel werden nur im Header apikey angenommen, nie in der URL.',
  },
  scope_missing: {
    status: 403,
    de: 'scope_fehlt',
    en_message: 'The API key lacks a required scope.',
    de_message: 'Dem API-Schlüssel fehlt ein erforderlicher Scope.',
  },
  validation_failed: {
    status: 422,
    de: 'validierung_fehlgeschlagen',
    en_message: 'The request is invalid.',
    de_message: 'Die Anfrage ist ungültig.',
  },
  invalid_json: {
    status: 400,
    de: 'json_ungueltig',
    en_message: 'The request body is not valid JSON.',
    de_message: 'Der Anfrageinhalt ist kein gültiges JSON.',
  },
  unsupported_media_type: {
    status: 415,
    de: 'medientyp_nicht_unterstuetzt',
    en_message: 'Send the body as application/json.',
    de_message: 'Der Inhalt muss application/json sein.',
  },
  not_found: {
    status: 404,
    de: 'nicht_gefunden',
    en_message: 'The resource does not exist.',
    de_message: 'Die Ressource existiert nicht.',
  },
  method_not_allowed: {
    status: 405,
    de: 'methode_nicht_erlaubt',
    en_message: 'The method is not allowed on this resource.',
    de_message: 'Die Methode ist für diese Ressource nicht erlaubt.',
  },
  invalid_transition: {
    status: 409,
    de: 'ungueltiger_uebergang',
    en_message: 'The status change is not allowed from the current status.',
    de_message: 'Der Statuswechsel ist vom aktuellen Status aus nicht erlaubt.',
  },
  conflict: {
    status: 409,
    de: 'konflikt',
    en_message: 'The request conflicts with the current state.',
    de_message: 'Die Anfrage steht im Konflikt mit dem aktuellen Zustand.',
  },
  idempotency_key_reused: {
    status: 422,
    de: 'idempotency_key_wiederverwendet',
    en_message: 'The Idempotency-Key was used with another request body.',
    de_message: 'Der Idempotency-Key wurde mit einem anderen Inhalt verwendet.',
  },
  payload_too_large: {
    status: 413,
    de: 'payload_too_large',
    en_message: 'The request body is too large.',
    de_message: 'Der Anfrageinhalt ist zu groß.',
  },
  rate_limited: { status: 429, de: 'rate_limited', en_message: 'Too many requests.', de_message: 'Zu viele Anfragen.' },
  request_timeout: {
    status: 408,
    de: 'zeitueberschreitung',
    en_message: 'The request took too long to arrive.',
    de_message: 'Die Anfrage kam nicht rechtzeitig an.',
  },
  service_unavailable: {
    status: 503,
    de: 'dienst_nicht_verfuegbar',
    en_message: 'The service is briefly unavailable; try again shortly.',
    de_message: 'Der Dienst ist kurz nicht verfügbar; bitte gleich noch einmal versuchen.',
  },
  internal_error: {
    status: 500,
    de: 'interner_fehler',
    en_message: 'An unexpected error occurred.',
    de_message: 'Ein unerwarteter Fehler ist aufgetreten.',
  },
} as const satisfies Record<string, CodeSpec>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** Reasons of a detail entry, English → German. */
export const REASONS = {
  missing: 'fehlt',
  invalid_type: 'ungueltiger_typ',
  invalid_format: 'ungueltiges_format',
  too_long: 'zu_lang',
  out_of_range: 'ausserhalb_bereich',
  not_allowed: 'nicht_erlaubt',
  unknown_field: 'unbekanntes_feld',
  not_granted: 'nicht_erteilt',
  overlaps: 'ueberschneidet_sich',
} as const;

export type Reason = keyof typeof REASONS;

export interface ErrorDetail {
  field: string;
  reason: Reason;
  /** With `overlaps`: the record the request clashes with (e.g. the appointment already booked then). */
  conflicting_id?: string;
  /** The rule the value broke (limit, allowed values, pattern); the body then also says it in words. */
  constraint?: Constraint;
}

/** Thrown from anywhere; the error handler turns it into the body of the request's dialect. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly details?: ErrorDetail[];
  readonly headers?: Record<string, string>;
  /** German message for the leads API; without it, the code's German default is used. */
  readonly messageDe?: string;

  constructor(
    code: ErrorCode,
    options: { message?: string; messageDe?: string; details?: ErrorDetail[]; headers?: Record<string, string> } = {},
  ) {
    super(options.message ?? ERROR_CODES[code].en_message);
    this.name = 'ApiError';
    this.code = code;
    this.details = options.details;
    this.headers = options.headers;
    this.messageDe = options.messageDe;
  }

  get status(): number {
    return ERROR_CODES[this.code].status;
  }
}

export function validationError(details: ErrorDetail[], message?: string, messageDe?: string): ApiError {
  return new ApiError('validation_failed', { details, message, messageDe });
}

export function notFound(message?: string): ApiError {
  return new ApiError('not_found', { message });
}

export interface EnglishErrorBody {
  code: string;
  message: string;
  details?: {
    field: string;
    reason: string;
    conflicting_id?: string;
    message?: string;
    constraint?: Record<string, unknown>;
  }[];
}

export interface GermanErrorBody {
  code: string;
  message: string;
  details?: {
    feld: string;
    grund: string;
    konflikt_id?: string;
    meldung?: string;
    vorgabe?: Record<string, unknown>;
  }[];
}

/** A detail's constraint in words and as data; `missing` with a type means `null` was sent. */
function described(detail: ErrorDetail, dialect: Dialect): { message: string; constraint: Record<string, unknown> } {
  const { field, reason, constraint = {} } = detail;
  return {
    message: constraintMessage(field, constraint, dialect, { nullGiven: reason === 'missing' }),
    constraint: constraintInDialect(constraint, dialect),
  };
}

/** The only place that knows both dialects of the error body. */
export function errorBody(error: ApiError, dialect: Dialect): EnglishErrorBody | GermanErrorBody {
  const spec = ERROR_CODES[error.code];
  if (dialect === 'en') {
    return {
      code: error.code,
      message: error.message,
      ...(error.details
        ? {
            details: error.details.map(({ constraint, ...detail }) =>
              constraint ? { ...detail, ...described({ ...detail, constraint }, 'en') } : detail,
            ),
          }
        : {}),
    };
  }
  return {
    code: spec.de,
    // Never English in the German dialect: a message without a German version falls back to the code's.
    message: error.messageDe ?? spec.de_message,
    ...(error.details
      ? {
          details: error.details.map((d) => ({
            feld: d.field,
            grund: REASONS[d.reason],
            ...(d.conflicting_id ? { konflikt_id: d.conflicting_id } : {}),
            ...(d.constraint ? germanDescribed(d) : {}),
          })),
        }
      : {}),
  };
}

function germanDescribed(detail: ErrorDetail): { meldung: string; vorgabe: Record<string, unknown> } {
  const { message, constraint } = described(detail, 'de');
  return { meldung: message, vorgabe: constraint };
}
