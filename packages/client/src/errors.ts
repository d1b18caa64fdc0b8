/** The rule a value broke (only the members that apply), e.g. `{ minimum: 1, maximum: 100 }`. */
export interface ErrorConstraint {
  minimum?: number;
  maximum?: number;
  exclusive_minimum?: number;
  exclusive_maximum?: number;
  min_length?: number;
  max_length?: number;
  min_items?: number;
  max_items?: number;
  max_properties?: number;
  allowed?: unknown[];
  pattern?: string;
  format?: string;
  type?: string | string[];
  multiple_of?: number;
  unique_items?: boolean;
  read_only?: boolean;
  max_bytes?: number;
}

/** One problem of an English error body (`422`: one per invalid field). */
export interface ErrorDetail {
  field: string;
  reason: string;
  conflicting_id?: string;
  /** With `constraint`: what the value must be, in words. */
  message?: string;
  constraint?: ErrorConstraint;
}

/** Die verletzte Vorgabe (nur die zutreffenden Angaben), z. B. `{ minimum: 1, maximum: 100 }`. */
export interface FehlerVorgabe {
  minimum?: number;
  maximum?: number;
  minimum_exklusiv?: number;
  maximum_exklusiv?: number;
  min_laenge?: number;
  max_laenge?: number;
  min_anzahl?: number;
  max_anzahl?: number;
  max_felder?: number;
  erlaubt?: unknown[];
  muster?: string;
  format?: string;
  typ?: string | string[];
  vielfaches_von?: number;
  eindeutig?: boolean;
  nur_lesen?: boolean;
  max_bytes?: number;
}

/** Ein Problem eines Fehlerkörpers der Leads-API. */
export interface FehlerDetail {
  feld: string;
  grund: string;
  konflikt_id?: string;
  /** Mit `vorgabe`: was der Wert sein muss, in Worten. */
  meldung?: string;
  vorgabe?: FehlerVorgabe;
}

/** What both error classes share: the status, the body's code, message and details, the headers. */
abstract class ErrorAnswer<Detail> extends Error {
  readonly code: string;
  readonly details: Detail[];

  constructor(
    readonly status: number,
    body: { code?: string; message?: string; details?: Detail[] } | undefined,
    readonly headers: Headers,
  ) {
    super(body?.message ?? `HTTP ${status}`);
    this.code = body?.code ?? `http_${status}`;
    this.details = body?.details ?? [];
  }

  /** The methods the path answers (`Allow`), on a 405: `['GET', 'HEAD', 'PATCH']`. */
  get allow(): string[] {
    return (this.headers.get('allow') ?? '').split(',').flatMap((method) => method.trim() || []);
  }

  /** Seconds to wait before trying again (`Retry-After`), when the answer says: on 429 and 503. */
  get retryAfter(): number | undefined {
    return retryAfterSeconds(this.headers.get('retry-after'));
  }
}

/** An error answer of the property or agent-platform API (`details`: `field`, `reason`). */
export class ApiError extends ErrorAnswer<ErrorDetail> {
  override readonly name: string = 'ApiError';
}

/** Eine Fehlerantwort der Leads-API (deutscher Dialekt): `details` mit `feld` und `grund`. */
export class LeadsApiError extends ErrorAnswer<FehlerDetail> {
  override readonly name: string = 'LeadsApiError';
}

function retryAfterSeconds(value: string | null): number | undefined {
  if (value === null) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** What every openapi-fetch call resolves to. */
export interface CallResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

const isLeadsAnswer = (response: Response) => {
  try {
    return new URL(response.url).pathname.startsWith('/leads/');
  } catch {
    return false;
  }
};

/**
 * The data of a successful call, or an `ApiError` (`LeadsApiError` for the leads API) thrown
 * for an error answer: `const property = await unwrap(client.GET('/v1/properties/{propertyId}', …))`.
 */
export async function unwrap<T>(call: Promise<CallResult<T>> | CallResult<T>): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok || response.status === 304) return data as T;
  const body = (typeof error === 'object' && error !== null ? error : undefined) as Record<string, never> | undefined;
  throw isLeadsAnswer(response)
    ? new LeadsApiError(response.status, body, response.headers)
    : new ApiError(response.status, body, response.headers);
}
