import { cell } from './sections.js';

interface CodeSpec {
  status: number;
  de: string;
}

/**
 * When each error code is answered, in integrators' words. A code without an entry fails
 * packages/http/test/docs-errors.test.ts, so a new code cannot go undocumented.
 */
export const ERROR_CODE_USES: Record<string, string> = {
  api_key_missing: 'No `apikey` header.',
  api_key_invalid:
    'The key is malformed (bad checksum), unknown, revoked, of the other service or of the other environment; the message says which.',
  api_key_in_query: 'A key was sent in the query string (`?apikey=`); it is not logged. Send it in the header.',
  scope_missing:
    "The key lacks the operation's scope; `details` names it (`field`: the scope, `reason`: `not_granted`).",
  validation_failed:
    'The input is invalid: one detail per problem (see the reasons below). Also a wrong `Idempotency-Key` header, a tampered cursor, a rule of the domain (commission, energy certificate).',
  invalid_json: 'The body is not valid JSON.',
  unsupported_media_type: 'The body is not `application/json` (or `multipart/form-data` where a file is uploaded).',
  not_found: 'No such route or record — or a record of another account, answered exactly alike.',
  method_not_allowed: 'The path exists but not with this method; the `Allow` header lists the methods it has.',
  invalid_transition: "A status action that is not allowed from the record's current status.",
  conflict:
    'The request conflicts with the current state: an archived or retired record, an overlapping booking (`reason` `overlaps` with `conflicting_id`), a request with the same `Idempotency-Key` still running (`Retry-After: 1`), a new API key for an application that has as many active keys as it may.',
  idempotency_key_reused: 'The `Idempotency-Key` was used before with a different request (method, path or body).',
  payload_too_large:
    "The body is over 1 MiB, or an uploaded file over the route's limit; the message and `details[].constraint.max_bytes` name the limit.",
  rate_limited:
    "The application's budget for the current minute is spent (one budget for all its keys), or too many test events; wait `Retry-After` seconds.",
  request_timeout: 'The request body arrived too slowly.',
  service_unavailable:
    'The service is overloaded or a dependency is briefly unreachable; retry after `Retry-After` seconds.',
  internal_error: 'An unexpected error. The body carries no internals; quote the `X-Request-Id` when you report it.',
};

/** What each detail reason means. */
export const REASON_USES: Record<string, string> = {
  missing:
    'A required field is absent, or `null` for a field that cannot be cleared (`constraint.type` names the type to send).',
  invalid_type: 'The value has the wrong JSON type.',
  invalid_format: 'The value does not match its format (date, e-mail, id, pattern, cursor).',
  too_long: 'A string or list is longer than allowed, or a body larger than its limit (413, `constraint.max_bytes`).',
  out_of_range:
    'A number or date is outside its bounds, or a string or list is shorter than allowed; `constraint` shows both bounds.',
  not_allowed: 'A read-only field, a value outside an enumeration, or a value a rule forbids.',
  unknown_field: 'A field the resource does not have.',
  not_granted: 'A scope the key does not have (with `scope_missing`).',
  overlaps: 'A booking overlaps another; `conflicting_id` names it (with `conflict`).',
};

/** The table of error codes: English code, German code, status, when. */
export function renderErrorCodes(codes: Record<string, CodeSpec>): string {
  const rows = Object.entries(codes)
    .sort(([, a], [, b]) => a.status - b.status)
    .map(
      ([code, spec]) =>
        `| \`${code}\` | \`${spec.de}\` | ${spec.status} | ${cell(ERROR_CODE_USES[code] ?? 'UNDOCUMENTED')} |`,
    );
  return ['| Code | Leads API (`code`) | Status | When |', '|---|---|---|---|', ...rows].join('\n');
}

/** The table of detail reasons: English `reason`, German `grund`, meaning. */
export function renderReasons(reasons: Record<string, string>): string {
  const rows = Object.entries(reasons).map(
    ([reason, grund]) => `| \`${reason}\` | \`${grund}\` | ${cell(REASON_USES[reason] ?? 'UNDOCUMENTED')} |`,
  );
  return ['| `reason` | Leads API (`grund`) | Meaning |', '|---|---|---|', ...rows].join('\n');
}

/** The leads API's codes: German code, status, the English code of the other APIs. */
export function renderGermanCodes(codes: Record<string, CodeSpec & { de_message: string }>): string {
  const rows = Object.entries(codes)
    .sort(([, a], [, b]) => a.status - b.status)
    .map(([code, spec]) => `| \`${spec.de}\` | ${spec.status} | ${cell(spec.de_message)} | \`${code}\` |`);
  return ['| `code` | Status | `message` (Standard) | Property API |', '|---|---|---|---|', ...rows].join('\n');
}
