import { allPassed, type TargetResult } from './run.js';

const pad = (text: string, width: number) => text.padEnd(width);
const padLeft = (text: string, width: number) => text.padStart(width);

/** One block per service: check, request, status, duration, PASS/FAIL/SKIP and why; then a summary line. */
export function table(results: readonly TargetResult[]): string {
  const rows = results.flatMap((r) => r.rows);
  const checkWidth = Math.max(5, ...rows.map((row) => row.check.length));
  const requestWidth = Math.max(7, ...rows.map((row) => row.method.length + 1 + row.path.length));
  const lines: string[] = [];
  for (const result of results) {
    lines.push(`${result.service}  ${result.baseUrl}  key ${result.key}`);
    lines.push(`  ${pad('CHECK', checkWidth)}  ${pad('REQUEST', requestWidth)}  STATUS      MS  RESULT`);
    for (const row of result.rows) {
      const status = row.status === null ? '-' : String(row.status);
      const outcome = row.reason ? `${row.result}  ${row.reason}` : row.result;
      lines.push(
        `  ${pad(row.check, checkWidth)}  ${pad(`${row.method} ${row.path}`, requestWidth)}  ${padLeft(status, 6)}  ${padLeft(String(row.durationMs), 6)}  ${outcome}`,
      );
    }
    lines.push('');
  }
  const count = (result: string) => rows.filter((row) => row.result === result).length;
  lines.push(
    `${allPassed(results) ? 'PASS' : 'FAIL'}: ${rows.length} checks, ${count('PASS')} passed, ${count('FAIL')} failed, ${count('SKIP')} skipped`,
  );
  return `${lines.join('\n')}\n`;
}

export function json(results: readonly TargetResult[]): string {
  const body = {
    ok: allPassed(results),
    services: results.map((r) => ({
      service: r.service,
      base_url: r.baseUrl,
      key: r.key,
      checks: r.rows.map((row) => ({
        check: row.check,
        method: row.method,
        path: row.path,
        status: row.status,
        duration_ms: row.durationMs,
        result: row.result,
        reason: row.reason || null,
      })),
    })),
  };
  return `${JSON.stringify(body, null, 2)}\n`;
}
