import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, sandboxSecret, type ServiceSettingsSpec } from '../src/config.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const dir = () => {
  const made = mkdtempSync(join(tmpdir(), 'config-'));
  dirs.push(made);
  return made;
};

/** Two services as their descriptors declare port and settings (packages know no app's names). */
const SERVICES = [
  { id: 'property', port: { variable: 'FIRST_PORT', default: 3000, description: '' }, settings: [] },
  {
    id: 'agent_platform',
    port: { variable: 'SECOND_PORT', default: 3100, description: '' },
    settings: [{ name: 'keepDays', variable: 'SECOND_KEEP_DAYS', default: 180, min: 1, max: 3650, unit: 'days', description: '' }],
  },
] as const satisfies ServiceSettingsSpec[];

describe('loadConfig', () => {
  it('has working defaults for the sandbox and keeps a generated pepper across starts', () => {
    const cwd = dir();
    const first = loadConfig({}, cwd, SERVICES);
    expect(first).toMatchObject({
      environment: 'sandbox',
      services: { property: { port: 3000, settings: {} }, agent_platform: { port: 3100, settings: { keepDays: 180 } } },
      databaseUrl: undefined,
      dataDir: join(cwd, '.data'),
    });
    expect(first.apiKeyPepper.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({}, cwd).apiKeyPepper).toBe(first.apiKeyPepper);
  });

  it('lists every problem at once with the variable names', () => {
    try {
      loadConfig({ APP_ENV: 'staging', FIRST_PORT: 'abc', DATABASE_URL: 'mysql://x', API_KEY_PEPPER: 'short', SECOND_KEEP_DAYS: '0' }, dir(), SERVICES);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as Error).message;
      for (const name of ['APP_ENV', 'FIRST_PORT', 'DATABASE_URL', 'API_KEY_PEPPER']) expect(message).toContain(name);
      expect(message).toContain('SECOND_KEEP_DAYS must be a whole number of days, 1 to 3650 (got "0").');
    }
  });

  it('caps webhook endpoints at 20 per account unless configured, within 1 to 1000', () => {
    expect(loadConfig({}, dir()).webhookMaxEndpoints).toBe(20);
    expect(loadConfig({ WEBHOOK_MAX_ENDPOINTS: '50' }, dir()).webhookMaxEndpoints).toBe(50);
    expect(() => loadConfig({ WEBHOOK_MAX_ENDPOINTS: '0' }, dir())).toThrow('WEBHOOK_MAX_ENDPOINTS must be a whole number, 1 to 1000 (got "0").');
  });

  it('requires a pepper in production', () => {
    expect(() => loadConfig({ APP_ENV: 'production' }, dir())).toThrow(/API_KEY_PEPPER is required in production/);
    expect(() => loadConfig({ APP_ENV: 'production', API_KEY_PEPPER: 'p'.repeat(32) }, dir())).toThrow(/WEBHOOK_SECRET_KEY is required/);
    expect(loadConfig({ APP_ENV: 'production', API_KEY_PEPPER: 'p'.repeat(32), WEBHOOK_SECRET_KEY: 'a'.repeat(64) }, dir()).apiKeyPepper).toBe('p'.repeat(32));
    expect(() => loadConfig({ APP_ENV: 'production', API_KEY_PEPPER: 'p'.repeat(32), WEBHOOK_SECRET_KEY: 'a'.repeat(64), WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }, dir())).toThrow(/refused in production/);
  });

  it('keeps the sandbox secrets in DATA_DIR, readable by this OS user only', () => {
    const dataDir = join(dir(), 'data');
    const pepper = loadConfig({ DATA_DIR: dataDir }, dir()).apiKeyPepper;
    const file = join(dataDir, 'sandbox-secrets.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dataDir).mode & 0o777).toBe(process.getuid?.() === 0 ? 0o711 : 0o700);
    const redis = sandboxSecret(dataDir, 'embedded_redis_password');
    expect(sandboxSecret(dataDir, 'embedded_redis_password')).toBe(redis);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ api_key_pepper: pepper, embedded_redis_password: redis });
    chmodSync(file, 0o644);
    sandboxSecret(dataDir, 'embedded_redis_password');
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});
