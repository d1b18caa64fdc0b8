import { expect, it } from 'vitest';
import { variablesOf } from '@platform/runtime';
import { USAGE } from '../src/run.js';
import { JOBS, SERVICES } from '../src/services.js';
import { renderJobs, renderUsage, renderVariables } from '../../../scripts/docs/operations.js';
import { generatedSection } from '../../../scripts/docs/sections.js';

const stale =
  'docs/operations.md is out of date; rewrite it with UPDATE_DOCS=1 pnpm test:only apps/cli/test/docs-operations.test.ts';

it('docs/operations.md lists every configuration variable the services validate at start-up', () => {
  const { committed, expected } = generatedSection(
    'operations.md',
    'variables',
    renderVariables(variablesOf(SERVICES)),
  );
  expect(committed, stale).toBe(expected);
});

it('docs/operations.md lists every job the worker schedules or runs', () => {
  const { committed, expected } = generatedSection('operations.md', 'jobs', renderJobs(JOBS));
  expect(committed, stale).toBe(expected);
});

it('docs/operations.md shows the CLI usage exactly as the CLI prints it', () => {
  const { committed, expected } = generatedSection('operations.md', 'cli-usage', renderUsage(USAGE));
  expect(committed, stale).toBe(expected);
});
