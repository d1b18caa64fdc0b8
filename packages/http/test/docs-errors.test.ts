import { expect, it } from 'vitest';
import { ERROR_CODES, REASONS } from '../src/errors.js';
import {
  ERROR_CODE_USES,
  REASON_USES,
  renderErrorCodes,
  renderGermanCodes,
  renderReasons,
} from '../../../scripts/docs/errors.js';
import { generatedSection } from '../../../scripts/docs/sections.js';

const stale =
  'docs/errors.md is out of date with ERROR_CODES/REASONS; rewrite it with UPDATE_DOCS=1 pnpm test:only packages/http/test/docs-errors.test.ts';

it('documents when every error code and every detail reason is used', () => {
  expect(
    Object.keys(ERROR_CODES).filter((code) => !ERROR_CODE_USES[code]),
    'add these codes to ERROR_CODE_USES in scripts/docs/errors.ts',
  ).toEqual([]);
  expect(
    Object.keys(REASONS).filter((reason) => !REASON_USES[reason]),
    'add these reasons to REASON_USES in scripts/docs/errors.ts',
  ).toEqual([]);
});

it('docs/errors.md lists every error code with its German code and status as the code defines them', () => {
  const { committed, expected } = generatedSection('errors.md', 'error-codes', renderErrorCodes(ERROR_CODES));
  expect(committed, stale).toBe(expected);
});

it('docs/errors.md lists every detail reason with its German name', () => {
  const { committed, expected } = generatedSection('errors.md', 'reasons', renderReasons(REASONS));
  expect(committed, stale).toBe(expected);
});

it('docs/leads-dialect.md lists every German code with its status and default message', () => {
  const { committed, expected } = generatedSection('leads-dialect.md', 'german-codes', renderGermanCodes(ERROR_CODES));
  expect(committed, stale.replace('errors.md', 'leads-dialect.md')).toBe(expected);
});

it('docs/leads-dialect.md lists every German detail reason', () => {
  const { committed, expected } = generatedSection('leads-dialect.md', 'german-reasons', renderReasons(REASONS));
  expect(committed, stale.replace('errors.md', 'leads-dialect.md')).toBe(expected);
});
