import type { ReadCheck, SmokeApi, WriteCheck } from './apis.js';
import type { Target } from './args.js';
import { send, type Answer, type NoAnswer } from './http.js';

export interface SmokeRow {
  check: string;
  method: 'GET' | 'POST';
  path: string;
  status: number | null;
  durationMs: number;
  result: 'PASS' | 'FAIL' | 'SKIP';
  reason: string;
}

export interface CheckContext {
  target: Target;
  timeoutMs: number;
  runId: string;
}

type Verdict = { pass: true } | { pass: false; reason: string };
const pass: Verdict = { pass: true };

function row(
  check: string,
  method: SmokeRow['method'],
  path: string,
  answer: Answer | NoAnswer,
  verdict: (answer: Answer) => Verdict,
): SmokeRow {
  const base = { check, method, path, status: answer.status, durationMs: answer.durationMs };
  if (answer.status === null) return { ...base, result: 'FAIL', reason: answer.reason };
  const outcome = verdict(answer);
  return { ...base, result: outcome.pass ? 'PASS' : 'FAIL', reason: outcome.pass ? '' : outcome.reason };
}

export const skipped = (check: string, method: SmokeRow['method'], path: string, reason: string): SmokeRow => ({
  check,
  method,
  path,
  status: null,
  durationMs: 0,
  result: 'SKIP',
  reason,
});

const field = (body: unknown, name: string): unknown =>
  body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;

/** `401 api_key_invalid: The API key is not valid.`: the error body's code and message, one line. */
function unexpected(answer: Answer, expected: number): Verdict {
  const code = field(answer.body, 'code');
  const message = field(answer.body, 'message');
  const redirect =
    answer.location !== null && answer.status >= 300 && answer.status < 400 ? ` (redirect to ${answer.location})` : '';
  const detail = typeof code === 'string' ? ` ${code}${typeof message === 'string' ? `: ${message}` : ''}` : redirect;
  return {
    pass: false,
    reason: `expected ${expected}, got ${answer.status}${detail}`.replace(/\s+/g, ' ').slice(0, 160),
  };
}

const expectStatus =
  (status: number, also?: (body: unknown) => string | null) =>
  (answer: Answer): Verdict => {
    if (answer.status !== status) return unexpected(answer, status);
    const problem = also?.(answer.body) ?? null;
    return problem === null ? pass : { pass: false, reason: problem };
  };

/** `GET /health/ready` without a key; a row with status `null` means the service answered nothing. */
export async function health({ target, timeoutMs }: CheckContext): Promise<SmokeRow> {
  const path = '/health/ready';
  const answer = await send({ baseUrl: target.baseUrl, method: 'GET', path, timeoutMs });
  return row('health', 'GET', path, answer, (a) => {
    if (a.status === 503) {
      const checks = field(a.body, 'checks');
      const down =
        checks && typeof checks === 'object'
          ? Object.entries(checks)
              .filter(([, v]) => v !== 'ok')
              .map(([k]) => k)
          : [];
      return { pass: false, reason: `not ready (503)${down.length ? `: ${down.join(', ')} unavailable` : ''}` };
    }
    return expectStatus(200, (body) =>
      field(body, 'status') === 'ready' ? null : 'answered 200 without status "ready"',
    )(a);
  });
}

export async function read(api: SmokeApi, check: ReadCheck, { target, timeoutMs }: CheckContext): Promise<SmokeRow> {
  const answer = await send({ baseUrl: target.baseUrl, method: 'GET', path: check.path, key: target.key, timeoutMs });
  return row(
    `${api.name}: ${check.name}`,
    'GET',
    check.path,
    answer,
    expectStatus(200, (body) =>
      Array.isArray(field(body, check.listMember)) ? null : `no "${check.listMember}" list in the answer`,
    ),
  );
}

/** The write and its undo: two rows; the undo is skipped when nothing was created. */
export async function writeAndUndo(
  api: SmokeApi,
  check: WriteCheck,
  { target, timeoutMs, runId }: CheckContext,
): Promise<SmokeRow[]> {
  const created = await send({
    baseUrl: target.baseUrl,
    method: 'POST',
    path: check.path,
    key: target.key,
    body: check.body(runId),
    timeoutMs,
  });
  const createRow = row(
    `${api.name}: ${check.name}`,
    'POST',
    check.path,
    created,
    expectStatus(201, (body) => (typeof field(body, 'id') === 'string' ? null : 'no "id" in the answer')),
  );
  const undoName = `${api.name}: ${check.undo.name} (undo)`;
  if (createRow.result !== 'PASS') {
    const outcomeUnknown = created.status === null || created.status >= 500;
    const reason = outcomeUnknown
      ? `create's outcome unknown: look for ${check.lookFor(runId)}`
      : 'nothing was created';
    return [createRow, skipped(undoName, 'POST', check.undo.path('{id}'), reason)];
  }
  const id = field((created as Answer).body, 'id') as string;
  const undoPath = check.undo.path(encodeURIComponent(id));
  const undone = await send({
    baseUrl: target.baseUrl,
    method: 'POST',
    path: undoPath,
    key: target.key,
    body: {},
    timeoutMs,
  });
  const undoRow = row(
    undoName,
    'POST',
    undoPath,
    undone,
    expectStatus(200, (body) => {
      const status = field(body, 'status');
      return status === check.undo.expectedStatus
        ? null
        : `status ${JSON.stringify(status)}, expected "${check.undo.expectedStatus}"`;
    }),
  );
  if (undoRow.result !== 'PASS') undoRow.reason += ` (left behind: ${id})`;
  return [createRow, undoRow];
}
