import { ContractRecorder, exerciseGenericErrors, exerciseReads, type DocumentName } from '@platform/contract';
import {
  parseArgs,
  redact,
  UsageError,
  USAGE as SMOKE_USAGE,
  displayUrl,
  type Target,
} from '../../scripts/smoke/args.js';

export const USAGE =
  SMOKE_USAGE.replace('pnpm smoke', 'pnpm contract').replace(/ \[--timeout <seconds>\]/, '') +
  '\n  Sandbox keys only (…_test_…): the checks only read, but a live key is refused all the same.';

/** The documents each key prefix answers. */
const DOCUMENTS_OF: Record<string, DocumentName[]> = { pm: ['property-api', 'leads-api'], ap: ['agent-platform-api'] };

interface Row {
  document: string;
  operation: string;
  check: string;
  status: string;
  result: 'PASS' | 'FAIL' | 'SKIP';
  problem: string;
}

/**
 * `pnpm contract`: the read-only part of the contract suite against a deployment: every GET of
 * the documents (ids taken from the collections) and the key and unknown-id errors, each answer
 * checked against the published documents. Returns the exit code.
 */
export async function contract(
  argv: readonly string[],
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
): Promise<number> {
  let targets: Target[];
  let json: boolean;
  try {
    const options = parseArgs(argv);
    if (!options) return (void out.write(`${USAGE}\n`), 0);
    ({ targets, json } = options);
    for (const warning of options.warnings) err.write(`${warning}\n`);
    const live = targets.find((t) => t.key.split('_')[1] === 'live');
    if (live)
      throw new UsageError(
        `The key ${live.keyDisplay} is a live key: run the contract checks with a sandbox key (…_test_…).`,
      );
  } catch (error) {
    if (error instanceof UsageError) return (void err.write(`${redact(error.message)}\n${USAGE}\n`), 2);
    throw error;
  }
  const rows: Row[] = [];
  for (const target of targets) {
    const documents = DOCUMENTS_OF[target.key.split('_')[0]!]!;
    const recorder = new ContractRecorder(documents);
    const baseUrl = displayUrl(target.baseUrl);
    for (const document of documents) {
      const operations = recorder.index.all.filter((o) => o.document === document);
      const start = recorder.responses.length;
      try {
        const reads = await exerciseReads(operations, { baseUrl, apiKey: target.key, fetch: recorder.fetch });
        const errors = await exerciseGenericErrors(operations, {
          baseUrl,
          apiKey: target.key,
          fetch: recorder.fetch,
          readOnly: true,
        });
        for (const skipped of reads.filter((r) => r.skipped))
          rows.push({
            document,
            operation: skipped.operationId,
            check: 'read',
            status: '-',
            result: 'SKIP',
            problem: skipped.skipped!,
          });
        for (const e of errors.filter((r) => !r.expected.includes(r.status)))
          rows.push({
            document,
            operation: e.operationId,
            check: e.check,
            status: String(e.status),
            result: 'FAIL',
            problem: `expected ${e.expected.join(' or ')}`,
          });
      } catch (error) {
        rows.push({
          document,
          operation: '-',
          check: 'connect',
          status: '-',
          result: 'FAIL',
          problem: `${baseUrl} could not be reached (${(error as Error).cause ?? (error as Error).message})`,
        });
        continue;
      }
      for (const response of recorder.responses.slice(start)) {
        rows.push({
          document,
          operation: response.operationId ?? `${response.method} ${response.path}`,
          check: 'contract',
          status: String(response.status),
          result: response.problems.length ? 'FAIL' : 'PASS',
          problem: response.problems.join('; '),
        });
      }
    }
  }
  // Whatever a deployment echoes, a key is printed only by its display prefix.
  out.write(
    redact(
      json ? `${JSON.stringify({ ok: rows.every((r) => r.result !== 'FAIL'), checks: rows }, null, 2)}\n` : table(rows),
    ),
  );
  return rows.some((r) => r.result === 'FAIL') ? 1 : 0;
}

function table(rows: Row[]): string {
  const header: Row = {
    document: 'DOCUMENT',
    operation: 'OPERATION',
    check: 'CHECK',
    status: 'STATUS',
    result: 'PASS',
    problem: 'PROBLEM',
  };
  const columns = ['document', 'operation', 'check', 'status', 'result'] as const;
  const widths = columns.map((c) =>
    Math.max(...[header, ...rows].map((r) => (r === header && c === 'result' ? 'RESULT' : r[c]).length)),
  );
  const line = (r: Row, first = false) =>
    [...columns.map((c, i) => (first && c === 'result' ? 'RESULT' : r[c]).padEnd(widths[i]!)), r.problem]
      .join('  ')
      .trimEnd();
  const failed = rows.filter((r) => r.result === 'FAIL').length;
  const passed = rows.filter((r) => r.result === 'PASS').length;
  return [
    line(header, true),
    ...rows.map((r) => line(r)),
    '',
    `${passed} passed, ${failed} failed, ${rows.length - passed - failed} skipped`,
    '',
  ].join('\n');
}
