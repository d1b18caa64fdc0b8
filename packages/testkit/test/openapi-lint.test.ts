// Redocly's recommended ruleset over the committed OpenAPI documents: every operation has a
// summary, the servers are listed, the licence is stated, and so on. Offline: local files only
// (their $refs are local), no telemetry and no update check.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const REDOCLY = join(ROOT, 'node_modules', '.bin', 'redocly');
const DOCUMENTS = ['property-api', 'leads-api', 'agent-platform-api', 'public-feeds-api'];

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
}

function lint(file: string): LintReport {
  let stdout: string;
  try {
    stdout = execFileSync(REDOCLY, ['lint', '--extends', 'recommended', '--format', 'json', file], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', CI: 'true' },
      timeout: 60_000,
    });
  } catch (error) {
    // Exit status 1 when there are errors; the report is on stdout all the same.
    stdout = (error as { stdout?: string }).stdout ?? '';
    if (!stdout) throw error;
  }
  return JSON.parse(stdout) as LintReport;
}

const summary = (report: LintReport) =>
  report.problems.map(
    (problem) => `${problem.severity} ${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`,
  );

describe('redocly lint --extends recommended', () => {
  it.each(DOCUMENTS)('finds no error and no warning in openapi/%s.json', (name) => {
    const report = lint(join(ROOT, 'openapi', `${name}.json`));
    expect(summary(report)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  const scratch = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('fails a document with an operation without summary and no servers', () => {
    const document = JSON.parse(readFileSync(join(ROOT, 'openapi', 'public-feeds-api.json'), 'utf8'));
    delete document.paths['/public/v1/feeds/{feedToken}/listings'].get.summary;
    document.servers = [];
    const file = join(scratch, 'broken.json');
    writeFileSync(file, JSON.stringify(document));
    const report = lint(file);
    expect(report.totals.errors).toBeGreaterThanOrEqual(2);
    expect(report.problems.map((problem) => problem.ruleId)).toEqual(
      expect.arrayContaining(['operation-summary', 'no-empty-servers']),
    );
  });
});
