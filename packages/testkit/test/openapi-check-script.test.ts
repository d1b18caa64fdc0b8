import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// `pnpm openapi:check` (scripts/openapi-check.ts), run in a scratch git repository.
const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));
const script = join(repositoryRoot, 'scripts/openapi-check.ts');
const tsx = join(repositoryRoot, 'node_modules/.bin/tsx');

const document = (properties: Record<string, unknown>) =>
  JSON.stringify({
    openapi: '3.1.0',
    info: { title: 'Listings', version: '1.0.0' },
    paths: {
      '/v1/listings': {
        get: {
          responses: {
            '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties } } } },
          },
        },
      },
    },
  });

let scratch: string;
const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.invalid', ...args], {
    cwd: scratch,
    stdio: 'pipe',
  });
const write = (name: string, text: string) => writeFileSync(join(scratch, 'openapi', name), text);
const check = (...args: string[]) => {
  const result = spawnSync(tsx, [script, ...args], { cwd: scratch, encoding: 'utf8' });
  return { status: result.status, output: result.stdout + result.stderr };
};

beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'openapi-check-'));
  mkdirSync(join(scratch, 'openapi'));
  git('init', '-q');
  write('listings-api.json', document({ id: { type: 'string' } }));
  git('add', '.');
  git('commit', '-q', '-m', 'committed documents');
});
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

describe('pnpm openapi:check', () => {
  it('passes unchanged documents and additive changes against HEAD', () => {
    expect(check()).toEqual({ status: 0, output: expect.stringContaining('openapi/listings-api.json: unchanged') });
    write('listings-api.json', document({ id: { type: 'string' }, city: { type: 'string' } }));
    write('leads-api.json', document({}));
    const { status, output } = check();
    expect([status, output]).toEqual([
      0,
      expect.stringMatching(/leads-api\.json: new\n.*listings-api\.json: changed, additive only\nno breaking change/),
    ]);
  });

  it('exits 1 on a breaking change and names it', () => {
    write('listings-api.json', document({ key: { type: 'string' } }));
    const { status, output } = check();
    expect(status).toBe(1);
    expect(output).toContain(
      "GET /v1/listings: response field 'id' removed [field-removed] at /paths/~1v1~1listings/get/responses/200/content/application~1json/schema/properties/id",
    );
  });

  it('compares with the ref given by --base', () => {
    write('listings-api.json', document({ key: { type: 'string' } }));
    git('commit', '-q', '-a', '-m', 'a breaking change');
    expect(check().status).toBe(0);
    expect(check('--base', 'HEAD~1')).toEqual({ status: 1, output: expect.stringContaining('against HEAD~1') });
  });

  it('passes a breaking change that a commit after the base declares, and says so', () => {
    write('listings-api.json', document({ key: { type: 'string' } }));
    git('commit', '-q', '-a', '-m', 'Rename id to key\n\nBreaking-API-Change: v1 is not published yet');
    expect(check('--base', 'HEAD~1')).toEqual({
      status: 0,
      output: expect.stringContaining(
        '1 breaking change(s), declared:\n  Breaking-API-Change: v1 is not published yet',
      ),
    });
    // A mention that is not the trailer line declares nothing.
    write('listings-api.json', document({}));
    git('commit', '-q', '-a', '-m', 'Drop key (see Breaking-API-Change: elsewhere)');
    expect(check('--base', 'HEAD~1').status).toBe(1);
  });

  it('counts a removed document as breaking', () => {
    rmSync(join(scratch, 'openapi', 'listings-api.json'));
    expect(check()).toEqual({
      status: 1,
      output: expect.stringContaining('openapi/listings-api.json: BREAKING: the document was removed'),
    });
  });

  it('refuses an unknown ref or option with exit 2', () => {
    expect(check('--base', 'no-such-ref')).toEqual({
      status: 2,
      output: expect.stringContaining('no-such-ref is not a commit of this repository'),
    });
    expect(check('--bse', 'HEAD').status).toBe(2);
  });
});
