import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

const dir = () => mkdtempSync(join(tmpdir(), 'config-'));

describe('loadConfig', () => {
  it('has working defaults for the sandbox and keeps a generated pepper across starts', () => {
    const cwd = dir();
    const first = loadConfig({}, cwd);
    expect(first).toMatchObject({ environment: 'sandbox', propertyPort: 3000, agentPlatformPort: 3100, databaseUrl: undefined, dataDir: join(cwd, '.data') });
    expect(first.apiKeyPepper.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({}, cwd).apiKeyPepper).toBe(first.apiKeyPepper);
  });

  it('lists every problem at once with the variable names', () => {
    try {
      loadConfig({ APP_ENV: 'staging', PROPERTY_PORT: 'abc', DATABASE_URL: 'mysql://x', API_KEY_PEPPER: 'short' }, dir());
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as Error).message;
      for (const name of ['APP_ENV', 'PROPERTY_PORT', 'DATABASE_URL', 'API_KEY_PEPPER']) expect(message).toContain(name);
    }
  });

  it('requires a pepper in production', () => {
    expect(() => loadConfig({ APP_ENV: 'production' }, dir())).toThrow(/API_KEY_PEPPER is required in production/);
    expect(() => loadConfig({ APP_ENV: 'production', API_KEY_PEPPER: 'p'.repeat(32) }, dir())).toThrow(/WEBHOOK_SECRET_KEY is required/);
    expect(loadConfig({ APP_ENV: 'production', API_KEY_PEPPER: 'p'.repeat(32), WEBHOOK_SECRET_KEY: 'a'.repeat(64) }, dir()).apiKeyPepper).toBe('p'.repeat(32));
    expect(() => loadConfig({ APP_ENV: 'production', API_KEY_PEPPER: 'p'.repeat(32), WEBHOOK_SECRET_KEY: 'a'.repeat(64), WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }, dir())).toThrow(/refused in production/);
  });
});
