// A service's directory settings: by default under DATA_DIR; set, any directory (relative paths from
// the working directory); resolved per service, next to its whole-number settings, and listed in
// the configuration table with their default under DATA_DIR.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { ServiceSettingsSpec } from '../src/config.js';
import { loadConfig, variablesOf } from '../src/config.js';

const cwd = mkdtempSync(join(tmpdir(), 'directory-settings-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));
// Given secrets: nothing is generated into DATA_DIR.
const secrets = { API_KEY_PEPPER: 'p'.repeat(32), WEBHOOK_SECRET_KEY: 'a'.repeat(64) };

const service: ServiceSettingsSpec = {
  id: 'property',
  port: { variable: 'SOME_PORT', default: 3999, description: 'Port.' },
  settings: [
    { name: 'batch', variable: 'SOME_BATCH', default: 10, min: 1, max: 100, unit: 'rows', description: 'Rows.' },
    { kind: 'directory', name: 'spoolDir', variable: 'SOME_SPOOL_DIR', default: 'spool', description: 'Spool.' },
  ],
};
const resolved = (env: Record<string, string>) => loadConfig({ ...secrets, ...env }, cwd, [service]).services.property;

it('defaults to the directory under DATA_DIR, resolved from the working directory', () => {
  expect(resolved({ DATA_DIR: 'state' })).toMatchObject({
    settings: { batch: 10 },
    directories: { spoolDir: join(cwd, 'state', 'spool') },
  });
});

it('is the directory the variable names, whatever DATA_DIR is; a relative one from the working directory', () => {
  expect(resolved({ DATA_DIR: 'state', SOME_SPOOL_DIR: '/mnt/shared/spool' })?.directories).toEqual({
    spoolDir: '/mnt/shared/spool',
  });
  expect(resolved({ SOME_SPOOL_DIR: 'spool-here' })?.directories).toEqual({ spoolDir: join(cwd, 'spool-here') });
  expect(resolved({ SOME_SPOOL_DIR: '' })?.directories).toEqual({ spoolDir: join(cwd, '.data', 'spool') });
});

it('lists the variable with its default under DATA_DIR', () => {
  expect(variablesOf([service]).find((variable) => variable.name === 'SOME_SPOOL_DIR')).toEqual({
    name: 'SOME_SPOOL_DIR',
    default: '(DATA_DIR/spool)',
    description: 'Spool.',
  });
});
