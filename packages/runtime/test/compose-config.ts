// docker-compose.yml and docker-compose.production.yml as docker-compose itself resolves them
// (`config` needs no Docker engine); shared by the compose tests. CI installs docker-compose (.ci/run).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect } from 'vitest';

export const ROOT = resolve(import.meta.dirname, '../../..');
export const SANDBOX = ['docker-compose.yml'];
export const PRODUCTION = ['docker-compose.yml', 'docker-compose.production.yml'];

/** Everything production requires; each is also checked alone for the failure naming it. */
export const PRODUCTION_ENV: Record<string, string> = {
  POSTGRES_PASSWORD: 'a1'.repeat(16),
  POSTGRES_APP_PASSWORD: 'a2'.repeat(16),
  REDIS_PASSWORD: 'b2'.repeat(16),
  API_KEY_PEPPER: 'c3'.repeat(16),
  WEBHOOK_SECRET_KEY: 'd4'.repeat(32),
  S3_ACCESS_KEY_ID: 'platform-app',
  S3_SECRET_ACCESS_KEY: 'f6'.repeat(16),
  PROPERTY_PUBLIC_BASE_URL: 'https://api.example.com',
  AGENT_PLATFORM_PUBLIC_BASE_URL: 'https://agents.example.com',
  TLS_CERT_DIR: '/etc/platform/tls',
};

export interface Service {
  image?: string;
  volumes?: string[];
  entrypoint?: string[];
  command?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test?: string[] };
  depends_on?: Record<string, { condition: string }>;
  ports?: (string | { published: number; target: number })[];
  restart?: string;
  build?: { context: string; dockerfile?: string };
}
export interface ComposeConfig {
  services: Record<string, Service>;
}

let emptyEnvFile: string | undefined;
/** A developer's .env must not change what the tests see: an empty env file replaces it. */
function emptyEnv(): string {
  if (!emptyEnvFile) {
    emptyEnvFile = join(mkdtempSync(join(tmpdir(), 'compose-test-')), 'empty.env');
    writeFileSync(emptyEnvFile, '');
  }
  return emptyEnvFile;
}

export function run(
  command: string,
  args: string[],
  options: { env?: Record<string, string>; input?: string; cwd?: string } = {},
) {
  const result = spawnSync(command, args, {
    cwd: options.cwd ?? ROOT,
    env: { PATH: process.env.PATH ?? '', ...options.env },
    input: options.input,
    encoding: 'utf8',
  });
  if ((result.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') {
    throw new Error(`${command} is not installed: apt-get install docker-compose (CI does this in .ci/run).`);
  }
  return result;
}

export function composeConfig(files: readonly string[], env: Record<string, string> = {}) {
  return run('docker-compose', ['--env-file', emptyEnv(), ...files.flatMap((file) => ['-f', file]), 'config'], {
    env,
  });
}

const cache = new Map<string, ComposeConfig>();

/** docker-compose v1 prints YAML only; its own PyYAML (a dependency of the package) turns it into JSON. */
export function resolved(files: readonly string[], env: Record<string, string> = {}): ComposeConfig {
  const key = JSON.stringify([files, env]);
  const cached = cache.get(key);
  if (cached) return structuredClone(cached);
  const result = composeConfig(files, env);
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  const json = run('python3', ['-c', 'import json, sys, yaml; json.dump(yaml.safe_load(sys.stdin), sys.stdout)'], {
    input: result.stdout,
  });
  expect(json.status, json.stderr).toBe(0);
  cache.set(key, JSON.parse(json.stdout) as ComposeConfig);
  return structuredClone(cache.get(key)!);
}

/** A command of `config`'s output as the container runs it: `config` keeps compose's `$$` escapes. */
export function asRun(words: readonly string[]): string[] {
  return words.map((word) => word.replaceAll('$$', '$'));
}
