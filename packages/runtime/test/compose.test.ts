// docker-compose.yml (sandbox) and docker-compose.production.yml, resolved by docker-compose itself
// (compose-config.ts), and the image's build inputs. The Redis and file-store commands run for real
// in compose-services.test.ts.
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { makeTestCertificates, PROXY_PARAMS } from '@platform/testkit';
import { composeConfig, PRODUCTION, PRODUCTION_ENV, resolved, ROOT, run, SANDBOX } from './compose-config.js';

const APPS = ['property-service', 'agent-platform', 'worker'];

function portOf(url: string): string {
  return /http:\/\/127\.0\.0\.1:(\d+)\//.exec(url)?.[1] ?? '(none)';
}

/** What each configuration publishes: the API ports (production: on loopback by default) and the proxy's. */
// The APIs on a range of host ports, one per replica (`--scale`), starting at their port.
const PUBLISHED = {
  sandbox: ['agent-platform:3100-3109', 'property-service:3000-3009'],
  production: ['agent-platform:3100-3109', 'property-service:3000-3009', 'proxy:443', 'proxy:80'],
};

describe.each([
  ['sandbox', SANDBOX, {}],
  ['production', PRODUCTION, PRODUCTION_ENV],
] as const)('the %s compose configuration', (configuration, files, env) => {
  it('gives every long-running service a health check and makes the apps wait for the one-shot services', () => {
    const { services } = resolved(files, env);
    const oneShot = Object.keys(services).filter((name) => services[name].restart === 'no');
    expect(oneShot.sort()).toEqual(['migrate', 'seaweedfs-init']);
    for (const [name, service] of Object.entries(services)) {
      if (oneShot.includes(name)) expect(service.healthcheck, name).toBeUndefined();
      else expect(service.healthcheck?.test?.length, `${name} has no healthcheck`).toBeGreaterThan(0);
      for (const [dependency, { condition }] of Object.entries(service.depends_on ?? {})) {
        const expected = oneShot.includes(dependency) ? 'service_completed_successfully' : 'service_healthy';
        expect(condition, `${name} → ${dependency}`).toBe(expected);
      }
    }
    for (const app of APPS) {
      expect(Object.keys(services[app].depends_on ?? {}), app).toEqual(
        expect.arrayContaining(['migrate', 'seaweedfs-init', 'redis']),
      );
    }
    expect(Object.keys(services.migrate.depends_on ?? {})).toContain('postgres');
  });

  it('checks each app on the port it listens on: the API port for the services, the metrics port for the worker', () => {
    const { services } = resolved(files, env);
    const probe = (app: string) => services[app].healthcheck?.test?.join(' ') ?? '';
    expect(portOf(probe('property-service'))).toBe(services['property-service'].environment?.PROPERTY_PORT);
    expect(probe('property-service')).toContain('/health/ready');
    expect(portOf(probe('agent-platform'))).toBe(services['agent-platform'].environment?.AGENT_PLATFORM_PORT);
    expect(probe('agent-platform')).toContain('/health/ready');
    expect(portOf(probe('worker'))).toBe(services.worker.environment?.METRICS_PORT);
    expect(probe('worker')).toContain('/health/live');
  });

  it('publishes the two API ports (and in production the proxy) and nothing else (no metrics, database, Redis or file-store port)', () => {
    const { services } = resolved(files, env);
    const published = Object.entries(services).flatMap(([name, service]) =>
      (service.ports ?? []).map(
        (port) =>
          `${name}:${typeof port === 'string' ? port.replace(/^.*:(\d+(?:-\d+)?):\d+\/tcp$/, '$1') : port.published}`,
      ),
    );
    expect(published.sort()).toEqual(PUBLISHED[configuration]);
  });

  it('can run several replicas of each app (`--scale`): no fixed container name, no host port taken twice', () => {
    const { services } = resolved(files, env);
    for (const app of APPS) {
      expect(services[app]).not.toHaveProperty('container_name');
      for (const port of services[app].ports ?? [])
        expect(String(typeof port === 'string' ? port : port.published), app).toMatch(/\d+-\d+/);
    }
  });

  it('runs Redis with AOF and noeviction, and the apps on the S3 store with the bucket seaweedfs-init creates and their own key', () => {
    const { services } = resolved(files, env);
    expect(services.redis.command?.join(' ')).toMatch(/--appendonly yes --maxmemory-policy noeviction/);
    expect(services.seaweedfs.image).toMatch(/^chrislusf\/seaweedfs:\d+\.\d+$/);
    expect(services['seaweedfs-init'].image).toBe(services.seaweedfs.image);
    for (const app of [...APPS, 'migrate']) {
      const environment = services[app].environment ?? {};
      expect(environment.STORAGE_DRIVER, app).toBe('s3');
      expect(environment.S3_ENDPOINT, app).toBe('http://seaweedfs:8333');
      expect(environment.S3_BUCKET, app).toBe(services['seaweedfs-init'].environment?.S3_BUCKET);
      expect(environment.S3_BUCKET, app).toBe(services.seaweedfs.environment?.S3_BUCKET);
      expect(environment.S3_ACCESS_KEY_ID, app).toBe(services.seaweedfs.environment?.S3_ACCESS_KEY_ID);
      expect(environment.S3_SECRET_ACCESS_KEY, app).toBe(services.seaweedfs.environment?.S3_SECRET_ACCESS_KEY);
    }
  });

  it('gives the property service and the worker one erasure journal volume at ERASURE_JOURNAL_DIR (the image creates it for its user)', () => {
    const { services } = resolved(files, env);
    const journalOf = (app: string) => {
      const dir = services[app].environment?.ERASURE_JOURNAL_DIR ?? '(unset)';
      return services[app].volumes?.find((v) => v.split(':')[1] === dir)?.split(':')[0];
    };
    expect(journalOf('property-service')).toBe('erasure-journal');
    expect(journalOf('worker')).toBe('erasure-journal');
    const dir = services.worker.environment?.ERASURE_JOURNAL_DIR;
    expect(readFileSync(join(ROOT, 'Dockerfile'), 'utf8')).toContain(`chown node:node ${dir}`);
  });

  it("connects the apps as the restricted role platform_app; only migrate knows the owner's password", () => {
    const { services } = resolved(files, env);
    const owner = new URL(services.migrate.environment?.MIGRATION_DATABASE_URL ?? '');
    expect(owner.username).toBe(services.postgres.environment?.POSTGRES_USER);
    expect(owner.password).toBe(services.postgres.environment?.POSTGRES_PASSWORD);
    for (const app of [...APPS, 'migrate']) {
      const url = new URL(services[app].environment?.DATABASE_URL ?? '');
      expect(url.username, app).toBe('platform_app');
      expect(url.password, app).not.toBe(owner.password);
      expect(`${url.host}${url.pathname}`, app).toBe(`${owner.host}${owner.pathname}`);
    }
    for (const app of APPS) {
      expect(services[app].environment, app).not.toHaveProperty('MIGRATION_DATABASE_URL');
      expect(JSON.stringify(services[app].environment), app).not.toContain(owner.password);
    }
  });

  it('runs every app command from a dist/ entry point that scripts/build.mjs produces from an existing source', async () => {
    const { services } = resolved(files, env);
    const { ENTRIES } = (await import(pathToFileURL(join(ROOT, 'scripts/build.mjs')).href)) as {
      ENTRIES: Record<string, string>;
    };
    for (const app of [...APPS, 'migrate']) {
      const [node, script] = services[app].command ?? [];
      expect(node, app).toBe('node');
      const entry = /^dist\/(.+)\.js$/.exec(script ?? '')?.[1] ?? '';
      expect(ENTRIES[entry], `${app} runs ${script}, which scripts/build.mjs does not build`).toBeDefined();
      expect(existsSync(join(ROOT, ENTRIES[entry])), ENTRIES[entry]).toBe(true);
      expect(services[app].build?.context, app).toBe(ROOT);
    }
  });
});

describe('the sandbox', () => {
  it('resolves with no variable set, on the documented sandbox defaults', () => {
    const { services } = resolved(SANDBOX);
    for (const app of [...APPS, 'migrate']) {
      expect(services[app].environment?.APP_ENV, app).toBe('sandbox');
      expect(services[app].environment?.API_KEY_PEPPER.length, app).toBeGreaterThanOrEqual(32);
      expect(services[app].environment?.WEBHOOK_SECRET_KEY, app).toMatch(/^[0-9a-f]{64}$/);
    }
  });
});

describe('production', () => {
  it.each(Object.keys(PRODUCTION_ENV))('refuses to resolve without %s, naming it', (variable) => {
    const env = { ...PRODUCTION_ENV };
    delete env[variable];
    const result = composeConfig(PRODUCTION, env);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain(`${variable} is required in production`);
  });

  /** The variables the production files require (`${X:?…}`), and the message of each occurrence. */
  const required = () =>
    PRODUCTION.flatMap((file) =>
      [...readFileSync(join(ROOT, file), 'utf8').matchAll(/\$\{([A-Z0-9_]+):\?([^}]*)\}/g)].map(
        ([, name, message]) => ({ name: name!, message: message! }),
      ),
    );
  const listed = (message: string) =>
    (/Production needs all of ([A-Z0-9_, ]+) \(/.exec(message)?.[1] ?? '').split(', ').sort();

  it('names every required variable in the message of each one, whichever docker-compose meets first', () => {
    const names = [...new Set(required().map(({ name }) => name))].sort();
    expect(names).toEqual(Object.keys(PRODUCTION_ENV).sort());
    for (const { name, message } of required()) {
      expect(message, name).toMatch(new RegExp(`^${name} is required in production\\. `));
      expect(listed(message), name).toEqual(names);
      expect(message, name).toContain('.env.production.example');
    }
  });

  it('without any .env, in a fresh project folder and a clean environment, fails with one message naming them all', () => {
    const project = mkdtempSync(join(tmpdir(), 'compose-no-env-'));
    for (const file of PRODUCTION) cpSync(join(ROOT, file), join(project, file));
    cpSync(join(ROOT, 'deploy'), join(project, 'deploy'), { recursive: true });
    const result = run('docker-compose', PRODUCTION.flatMap((file) => ['-f', file]).concat('config'), { cwd: project });
    expect(result.status).not.toBe(0);
    expect(result.stdout).toBe('');
    expect(listed(result.stderr)).toEqual([...new Set(required().map(({ name }) => name))].sort());
    expect(result.stderr).toMatch(/[A-Z0-9_]+ is required in production\./);
  });

  it('.env.production.example lists every required variable, to be filled in', () => {
    const example = readFileSync(join(ROOT, '.env.production.example'), 'utf8');
    const set = new Set([...example.matchAll(/^([A-Z0-9_]+)=/gm)].map(([, name]) => name));
    for (const { name } of required()) expect(set.has(name), name).toBe(true);
    expect(example).toMatch(/^COMPOSE_FILE=docker-compose\.yml:docker-compose\.production\.yml$/m);
  });

  it('refuses an empty secret like a missing one', () => {
    const result = composeConfig(PRODUCTION, { ...PRODUCTION_ENV, API_KEY_PEPPER: '' });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('API_KEY_PEPPER is required in production');
  });

  it('with every secret set: APP_ENV=production, the given secrets, and no sandbox default left anywhere', () => {
    const config = resolved(PRODUCTION, PRODUCTION_ENV);
    for (const app of [...APPS, 'migrate']) {
      const environment = config.services[app].environment ?? {};
      expect(environment.APP_ENV, app).toBe('production');
      expect(environment.API_KEY_PEPPER, app).toBe(PRODUCTION_ENV.API_KEY_PEPPER);
      expect(environment.WEBHOOK_SECRET_KEY, app).toBe(PRODUCTION_ENV.WEBHOOK_SECRET_KEY);
      expect(environment.WEBHOOK_ALLOW_PRIVATE_TARGETS, app).toBe('false');
      expect(environment.DATABASE_URL, app).toBe(
        `postgresql://platform_app:${PRODUCTION_ENV.POSTGRES_APP_PASSWORD}@postgres:5432/platform`,
      );
      expect(environment.REDIS_URL, app).toBe(`redis://:${PRODUCTION_ENV.REDIS_PASSWORD}@redis:6379`);
    }
    expect(config.services.migrate.environment?.MIGRATION_DATABASE_URL).toBe(
      `postgresql://platform:${PRODUCTION_ENV.POSTGRES_PASSWORD}@postgres:5432/platform`,
    );
    expect(config.services.postgres.environment?.POSTGRES_PASSWORD).toBe(PRODUCTION_ENV.POSTGRES_PASSWORD);
    expect(config.services.redis.environment?.REDIS_PASSWORD).toBe(PRODUCTION_ENV.REDIS_PASSWORD);
    expect(config.services.seaweedfs.environment?.S3_SECRET_ACCESS_KEY).toBe(PRODUCTION_ENV.S3_SECRET_ACCESS_KEY);
    // The sandbox's URL (for the documents' `servers`) is the one mention of a sandbox allowed, and only when given.
    const servers = /^(PROPERTY|AGENT_PLATFORM)_SANDBOX_PUBLIC_BASE_URL$/;
    for (const app of APPS)
      for (const [name, value] of Object.entries(config.services[app].environment ?? {}))
        if (servers.test(name)) expect(value, `${app} ${name}`).toBe('');
    const rest = JSON.stringify(config, (key, value) => (servers.test(key) ? undefined : value));
    expect(rest).not.toMatch(/sandbox/i);
  });

  it("passes the other deployment's URLs for the OpenAPI documents' servers when given", () => {
    const config = resolved(PRODUCTION, {
      ...PRODUCTION_ENV,
      PROPERTY_SANDBOX_PUBLIC_BASE_URL: 'https://sandbox.api.example.com',
      AGENT_PLATFORM_SANDBOX_PUBLIC_BASE_URL: 'https://sandbox.agents.example.com',
    });
    for (const app of APPS) {
      const environment = config.services[app].environment ?? {};
      expect(environment.PROPERTY_SANDBOX_PUBLIC_BASE_URL, app).toBe('https://sandbox.api.example.com');
      expect(environment.AGENT_PLATFORM_SANDBOX_PUBLIC_BASE_URL, app).toBe('https://sandbox.agents.example.com');
    }
  });
});

describe('the TLS proxy of production', () => {
  const proxy = () => resolved(PRODUCTION, PRODUCTION_ENV).services.proxy!;
  const mounted = (target: string) =>
    proxy()
      .volumes?.find((v) => v.split(':')[1] === target)
      ?.split(':')[0];

  it("runs nginx in front of both services once they are healthy, with their public URLs and the operator's certificate folder", () => {
    expect(proxy().image).toMatch(/^nginx:\d+\.\d+$/);
    expect(proxy().depends_on).toEqual({
      'property-service': { condition: 'service_healthy' },
      'agent-platform': { condition: 'service_healthy' },
    });
    expect(proxy().environment).toEqual({
      PROPERTY_PUBLIC_BASE_URL: PRODUCTION_ENV.PROPERTY_PUBLIC_BASE_URL,
      AGENT_PLATFORM_PUBLIC_BASE_URL: PRODUCTION_ENV.AGENT_PLATFORM_PUBLIC_BASE_URL,
    });
    expect(mounted('/etc/nginx/tls')).toBe(PRODUCTION_ENV.TLS_CERT_DIR);
    expect(mounted('/etc/nginx/proxy-params.conf')).toBe(join(ROOT, 'deploy/nginx/proxy-params.conf'));
    expect(mounted('/etc/nginx/templates')).toBe(join(ROOT, 'deploy/nginx/templates'));
    expect(mounted('/docker-entrypoint.d/15-public-hosts.envsh')).toBe(join(ROOT, 'deploy/nginx/public-hosts.envsh'));
  });

  it('has the services trust its X-Forwarded-For (the sandbox, without a proxy, does not by default)', () => {
    const production = resolved(PRODUCTION, PRODUCTION_ENV).services;
    const sandbox = resolved(SANDBOX).services;
    for (const app of APPS) {
      expect(production[app].environment?.TRUST_PROXY, app).toBe('true');
      expect(sandbox[app].environment?.TRUST_PROXY, app).toBe('false');
    }
  });

  it('renders, as the image does, into a configuration nginx accepts, routing each public host to its service', () => {
    const dir = mkdtempSync(join(tmpdir(), 'compose-proxy-'));
    const certificates = makeTestCertificates(dir);
    const hosts = run(
      'sh',
      ['-c', '. deploy/nginx/public-hosts.envsh && echo "$PROPERTY_PUBLIC_HOST $AGENT_PLATFORM_PUBLIC_HOST"'],
      {
        env: proxy().environment,
      },
    );
    expect(hosts.stdout.trim()).toBe('api.example.com agents.example.com');
    const [propertyHost, agentsHost] = hosts.stdout.trim().split(' ');
    // The image's envsubst, and the paths of the container mapped to the test's (compose's DNS names to loopback).
    const site = readFileSync(join(ROOT, 'deploy/nginx/templates/default.conf.template'), 'utf8')
      .replaceAll('${PROPERTY_PUBLIC_HOST}', propertyHost!)
      .replaceAll('${AGENT_PLATFORM_PUBLIC_HOST}', agentsHost!)
      .replaceAll('/etc/nginx/tls/fullchain.pem', certificates.certPath)
      .replaceAll('/etc/nginx/tls/privkey.pem', certificates.keyPath)
      .replaceAll('/etc/nginx/proxy-params.conf', PROXY_PARAMS)
      .replace(/server (property-service|agent-platform):/g, 'server 127.0.0.1:');
    expect(site).not.toContain('${');
    expect(site).toMatch(new RegExp(`server_name ${propertyHost};\\s+location / \\{\\s+proxy_pass http://property;`));
    expect(site).toMatch(new RegExp(`server_name ${agentsHost};\\s+location / \\{\\s+proxy_pass http://agents;`));
    writeFileSync(join(dir, 'site.conf'), site);
    writeFileSync(
      join(dir, 'nginx.conf'),
      `pid ${dir}/nginx.pid;\nevents {}\nhttp {\n  access_log off;\n  include ${dir}/site.conf;\n}\n`,
    );
    const check = run('/usr/sbin/nginx', [
      '-t',
      '-p',
      dir,
      '-e',
      join(dir, 'error.log'),
      '-c',
      join(dir, 'nginx.conf'),
    ]);
    expect(check.stderr).toContain('test is successful');
    expect(check.status).toBe(0);
  });
});

describe('the image build inputs', () => {
  const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');

  it('build on node:24-slim (pinned by digest or not, in one stage or several)', () => {
    expect(dockerfile).toMatch(/^FROM node:24-slim(@sha256:[0-9a-f]{64})?(\s+AS\s+\S+)?$/im);
  });

  it('copy only files that exist', () => {
    const copies = [...dockerfile.matchAll(/^COPY\s+(?!--from)(.+)$/gm)].map((match) =>
      match[1]
        .trim()
        .split(/\s+/)
        .filter((word) => !word.startsWith('--'))
        .slice(0, -1),
    );
    expect(copies.length).toBeGreaterThan(0);
    for (const source of copies.flat()) expect(existsSync(join(ROOT, source)), `COPY ${source}`).toBe(true);
  });

  it('leave .env, local data and installed packages out of the image', () => {
    const ignored = readFileSync(join(ROOT, '.dockerignore'), 'utf8').split('\n');
    expect(ignored).toEqual(
      expect.arrayContaining(['.env', '.data', 'node_modules', '**/node_modules', 'dist', '.git']),
    );
  });
});
