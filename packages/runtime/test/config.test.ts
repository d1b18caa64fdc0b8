import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, sandboxSecret, type ServiceSettingsSpec } from '../src/config.js';
import { openStorage } from '../src/storage.js';

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
    settings: [
      {
        name: 'keepDays',
        variable: 'SECOND_KEEP_DAYS',
        default: 180,
        min: 1,
        max: 3650,
        unit: 'days',
        description: '',
      },
    ],
  },
] as const satisfies ServiceSettingsSpec[];

describe('loadConfig', () => {
  it("takes each service's public base URL from its own variable, else PUBLIC_BASE_URL, else its local address", () => {
    const local = loadConfig({ SECOND_PORT: '4100' }, dir(), SERVICES).services;
    expect([local.property?.publicBaseUrl, local.agent_platform?.publicBaseUrl]).toEqual([
      'http://localhost:3000',
      'http://localhost:4100',
    ]);
    const shared = loadConfig(
      { PUBLIC_BASE_URL: 'https://api.example.com/', AGENT_PLATFORM_PUBLIC_BASE_URL: 'https://agents.example.com' },
      dir(),
      SERVICES,
    ).services;
    expect([shared.property?.publicBaseUrl, shared.agent_platform?.publicBaseUrl]).toEqual([
      'https://api.example.com',
      'https://agents.example.com',
    ]);
    expect(() => loadConfig({ PUBLIC_BASE_URL: 'ftp://x' }, dir(), SERVICES)).toThrow(
      /PUBLIC_BASE_URL must be an http\(s\) URL/,
    );
    expect(() => loadConfig({ PROPERTY_PUBLIC_BASE_URL: 'https://x.example?a=1' }, dir(), SERVICES)).toThrow(
      /PROPERTY_PUBLIC_BASE_URL must be/,
    );
  });

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
      loadConfig(
        {
          APP_ENV: 'staging',
          FIRST_PORT: 'abc',
          DATABASE_URL: 'mysql://x',
          API_KEY_PEPPER: 'short',
          SECOND_KEEP_DAYS: '0',
        },
        dir(),
        SERVICES,
      );
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
    expect(() => loadConfig({ WEBHOOK_MAX_ENDPOINTS: '0' }, dir())).toThrow(
      'WEBHOOK_MAX_ENDPOINTS must be a whole number, 1 to 1000 (got "0").',
    );
  });

  it('caps API keys at 20 per application unless configured, within 1 to 1000', () => {
    expect(loadConfig({}, dir()).apiKeysPerApplication).toBe(20);
    expect(loadConfig({ API_KEYS_PER_APPLICATION: '5' }, dir()).apiKeysPerApplication).toBe(5);
    for (const value of ['0', '1001', '2.5', 'many']) {
      expect(() => loadConfig({ API_KEYS_PER_APPLICATION: value }, dir())).toThrow(
        `API_KEYS_PER_APPLICATION must be a whole number, 1 to 1000 (got "${value}").`,
      );
    }
  });

  it('requires a pepper in production', () => {
    expect(() => loadConfig({ APP_ENV: 'production' }, dir())).toThrow(/API_KEY_PEPPER is required in production/);
    expect(() => loadConfig({ APP_ENV: 'production', API_KEY_PEPPER: 'p'.repeat(32) }, dir())).toThrow(
      /WEBHOOK_SECRET_KEY is required/,
    );
    expect(
      loadConfig({ APP_ENV: 'production', API_KEY_PEPPER: 'p'.repeat(32), WEBHOOK_SECRET_KEY: 'a'.repeat(64) }, dir())
        .apiKeyPepper,
    ).toBe('p'.repeat(32));
    expect(() =>
      loadConfig(
        {
          APP_ENV: 'production',
          API_KEY_PEPPER: 'p'.repeat(32),
          WEBHOOK_SECRET_KEY: 'a'.repeat(64),
          WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        },
        dir(),
      ),
    ).toThrow(/refused in production/);
  });

  it('keeps the sandbox secrets in DATA_DIR, readable by this OS user only', () => {
    const dataDir = join(dir(), 'data');
    const pepper = loadConfig({ DATA_DIR: dataDir }, dir()).apiKeyPepper;
    const file = join(dataDir, 'sandbox-secrets.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dataDir).mode & 0o777).toBe(process.getuid?.() === 0 ? 0o711 : 0o700);
    const redis = sandboxSecret(dataDir, 'embedded_redis_password');
    expect(sandboxSecret(dataDir, 'embedded_redis_password')).toBe(redis);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
      api_key_pepper: pepper,
      embedded_redis_password: redis,
    });
    chmodSync(file, 0o644);
    sandboxSecret(dataDir, 'embedded_redis_password');
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('stores files under DATA_DIR/blobs by default', () => {
    expect(loadConfig({}, dir()).storage).toEqual({ driver: 'filesystem' });
    expect(loadConfig({ STORAGE_DRIVER: 'filesystem', S3_BUCKET: 'ignored' }, dir()).storage).toEqual({
      driver: 'filesystem',
    });
  });

  it('takes the S3 settings, with us-east-1 as the default region', () => {
    const env = {
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: 'http://127.0.0.1:8333',
      S3_BUCKET: 'platform-files',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'very-secret-value',
    };
    expect(loadConfig(env, dir()).storage).toEqual({
      driver: 's3',
      endpoint: 'http://127.0.0.1:8333',
      region: 'us-east-1',
      bucket: 'platform-files',
      accessKeyId: 'id',
      secretAccessKey: 'very-secret-value',
    });
    expect(loadConfig({ ...env, S3_REGION: 'eu-central-1' }, dir()).storage).toMatchObject({ region: 'eu-central-1' });
  });

  it('never shows the S3 secret when the configuration is logged or printed', () => {
    const config = loadConfig(
      {
        STORAGE_DRIVER: 's3',
        S3_ENDPOINT: 'https://s3.example.com',
        S3_BUCKET: 'files',
        S3_ACCESS_KEY_ID: 'id',
        S3_SECRET_ACCESS_KEY: 'very-secret-value',
      },
      dir(),
    );
    expect(JSON.stringify(config)).not.toContain('very-secret-value');
    expect(JSON.stringify(config)).toContain('"secretAccessKey":"[redacted]"');
    expect(inspect(config, { depth: 5 })).not.toContain('very-secret-value');
  });

  it('reports every missing or invalid S3 setting at once, without echoing secrets', () => {
    try {
      loadConfig({ STORAGE_DRIVER: 's3', S3_REGION: 'EU Central', LOG_LEVEL: 'loud' }, dir());
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toEqual(
        expect.arrayContaining([
          'S3_ENDPOINT is required when STORAGE_DRIVER=s3.',
          'S3_BUCKET is required when STORAGE_DRIVER=s3.',
          'S3_ACCESS_KEY_ID is required when STORAGE_DRIVER=s3.',
          'S3_SECRET_ACCESS_KEY is required when STORAGE_DRIVER=s3.',
          'S3_REGION must be a region name such as us-east-1 (got "EU Central").',
        ]),
      );
      expect((error as Error).message).toContain('LOG_LEVEL');
    }
    try {
      loadConfig(
        {
          STORAGE_DRIVER: 's3',
          S3_ENDPOINT: 'https://user:hunter2@s3.example.com',
          S3_BUCKET: 'No_Such',
          S3_ACCESS_KEY_ID: 'id',
          S3_SECRET_ACCESS_KEY: 'very-secret-value',
        },
        dir(),
      );
      expect.unreachable();
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([
        'S3_ENDPOINT must not contain credentials (use S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY).',
        'S3_BUCKET must be a bucket name: 3 to 63 lower-case letters, digits, dots and hyphens (got "No_Such").',
      ]);
      expect((error as Error).message).not.toMatch(/hunter2|very-secret-value/);
    }
    expect(() =>
      loadConfig(
        {
          STORAGE_DRIVER: 's3',
          S3_ENDPOINT: 'ftp://files',
          S3_BUCKET: 'files',
          S3_ACCESS_KEY_ID: 'id',
          S3_SECRET_ACCESS_KEY: 'x',
        },
        dir(),
      ),
    ).toThrow('S3_ENDPOINT must be an http:// or https:// URL.');
    expect(() => loadConfig({ STORAGE_DRIVER: 'disk' }, dir())).toThrow(
      'STORAGE_DRIVER must be filesystem or s3 (got "disk").',
    );
  });

  it('openStorage opens the configured driver: files under DATA_DIR/blobs by default', async () => {
    const dataDir = join(dir(), 'data');
    const storage = openStorage(loadConfig({ DATA_DIR: dataDir }, dir()));
    const stored = await storage.put(Readable.from([Buffer.from('a file')]));
    expect(existsSync(join(dataDir, 'blobs', stored.key.slice(0, 2), stored.key.slice(2, 4), stored.key))).toBe(true);
    const s3 = openStorage(
      loadConfig(
        {
          STORAGE_DRIVER: 's3',
          S3_ENDPOINT: 'http://127.0.0.1:9',
          S3_BUCKET: 'files',
          S3_ACCESS_KEY_ID: 'id',
          S3_SECRET_ACCESS_KEY: 'secret',
        },
        dir(),
      ),
    );
    expect(s3).toHaveProperty('client'); // the S3 driver (tested against a real S3 server in @platform/storage)
    (s3 as unknown as { close(): void }).close();
  });
});
