// `pnpm smoke` as an operator runs it after a deploy: a child process against both services
// started by `scripts/start.ts` on real HTTP, with the database checked for what the run left.
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentPlatformDescriptor } from '@platform/agent-platform';
import { generateKey, revokeApiKey } from '@platform/auth';
import { propertyDescriptor } from '@platform/property-service';
import {
  addKey,
  createTenant,
  createTestDatabase,
  freePort,
  runScript,
  startServices,
  testRedis,
  type ScriptRun,
  type StartedServices,
  type Tenant,
  type TestDatabase,
} from '@platform/testkit';
import { SMOKE_SERVICES } from '../../../scripts/smoke/apis.js';

let db: TestDatabase;
let services: StartedServices;
let property: Tenant;
let agents: Tenant;
const ports = { property: 0, agents: 0, metrics: 0 };
const redis = testRedis();
const url = (port: number) => `http://127.0.0.1:${port}`;

beforeAll(async () => {
  db = await createTestDatabase();
  property = await createTenant(db.prisma, { service: propertyDescriptor });
  agents = await createTenant(db.prisma, { service: agentPlatformDescriptor });
  services = await startServices({ databaseUrl: db.url, redisUrl: redis.url });
  Object.assign(ports, services.ports);
}, 90_000);

afterAll(async () => {
  await services?.stop();
  await db?.drop();
});

/** The keys as an operator passes them: in environment variables named with --key-env. */
const keyEnv = () => ({ SMOKE_PM_KEY: property.key, SMOKE_AP_KEY: agents.key });
const smoke = (args: string[], env: Record<string, string> = {}) =>
  runScript('scripts/smoke.ts', args, { ...process.env, ...keyEnv(), ...env });

interface JsonCheck {
  check: string;
  method: string;
  path: string;
  status: number | null;
  duration_ms: number;
  result: 'PASS' | 'FAIL' | 'SKIP';
  reason: string | null;
}
interface JsonReport {
  ok: boolean;
  services: { service: string; base_url: string; key: string; checks: JsonCheck[] }[];
}

const checksOf = (run: ScriptRun): JsonCheck[] =>
  (JSON.parse(run.stdout) as JsonReport).services.flatMap((s) => s.checks);

/** Not the key, nor one character more of it than its display prefix. */
const expectNoKey = (run: ScriptRun, key: string) => {
  expect(run.stdout + run.stderr).not.toContain(key.slice(0, 13));
};

const bothServices = () => [
  '--base-url',
  url(ports.property),
  '--key-env',
  'SMOKE_PM_KEY',
  '--base-url',
  url(ports.agents),
  '--key-env',
  'SMOKE_AP_KEY',
];

describe('against healthy services', () => {
  it('passes every check of both services, prints the table and exits 0', async () => {
    const run = await smoke(bothServices());
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const rows = run.stdout.split('\n').filter((line) => / (GET|POST) \//.test(line));
    expect(rows).toHaveLength(11);
    for (const row of rows) expect(row).toMatch(/ (200|201) +\d+ {2}PASS$/);
    expect(run.stdout).toContain(
      `property-marketing service  ${url(ports.property)}  key ${property.key.slice(0, 12)}…`,
    );
    expect(run.stdout).toContain(`agent platform  ${url(ports.agents)}  key ${agents.key.slice(0, 12)}…`);
    expect(run.stdout).toMatch(
      /^ {2}interessenten: erase \(undo\) +POST \/leads\/v1\/interessenten\/int_\w+\/loeschung +200 /m,
    );
    expect(run.stdout.trim().split('\n').at(-1)).toBe('PASS: 11 checks, 11 passed, 0 failed, 0 skipped');
    // Keys from the environment: no warning, and no key in the output.
    expect(run.stderr).toBe('');
    expectNoKey(run, property.key);
    expectNoKey(run, agents.key);
  });

  it('prints the results as JSON with --json', async () => {
    const run = await smoke([...bothServices(), '--json']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as JsonReport;
    expect(report.ok).toBe(true);
    expect(report.services.map((s) => [s.service, s.key])).toEqual([
      ['property-marketing service', `${property.key.slice(0, 12)}…`],
      ['agent platform', `${agents.key.slice(0, 12)}…`],
    ]);
    expect(checksOf(run).map((c) => [c.check, c.method, c.result, c.reason])).toEqual([
      ['health', 'GET', 'PASS', null],
      ['properties: list', 'GET', 'PASS', null],
      ['properties: create', 'POST', 'PASS', null],
      ['properties: archive (undo)', 'POST', 'PASS', null],
      ['interessenten: list', 'GET', 'PASS', null],
      ['interessenten: create', 'POST', 'PASS', null],
      ['interessenten: erase (undo)', 'POST', 'PASS', null],
      ['health', 'GET', 'PASS', null],
      ['agents: list', 'GET', 'PASS', null],
      ['agents: create', 'POST', 'PASS', null],
      ['agents: retire (undo)', 'POST', 'PASS', null],
    ]);
    expectNoKey(run, property.key);
  });

  it('leaves nothing behind: every property it created archived, every prospect erased, every agent retired', async () => {
    const ofProperty = { where: { account_id: property.accountId } };
    const ofAgents = { where: { account_id: agents.accountId } };
    const before = [
      await db.prisma.property.count(ofProperty),
      await db.prisma.prospect.count(ofProperty),
      await db.prisma.agentDeployment.count(ofAgents),
    ];
    expect((await smoke(bothServices())).code).toBe(0);
    const properties = await db.prisma.property.findMany(ofProperty);
    expect(properties.length).toBe(before[0] + 1);
    expect(properties.every((p) => p.status === 'archived')).toBe(true);
    const prospects = await db.prisma.prospect.findMany(ofProperty);
    expect(prospects.length).toBe(before[1] + 1);
    for (const p of prospects)
      expect([p.anonymised_at instanceof Date, p.last_name, p.email, p.consent_purpose]).toEqual([
        true,
        null,
        null,
        null,
      ]);
    const deployments = await db.prisma.agentDeployment.findMany(ofAgents);
    expect(deployments.length).toBe(before[2] + 1);
    expect(deployments.every((a) => a.status === 'retired' && a.retired_at !== null)).toBe(true);
  });
});

describe('failures', () => {
  it('fails every authenticated check with a revoked key and exits 1', async () => {
    const revoked = await createTenant(db.prisma, { service: propertyDescriptor });
    await revokeApiKey(db.prisma, { id: revoked.keyId });
    const run = await smoke(['--base-url', url(ports.property), '--key-env', 'SMOKE_KEY', '--json'], {
      SMOKE_KEY: revoked.key,
    });
    expect(run.code).toBe(1);
    const checks = checksOf(run);
    expect(checks[0]).toMatchObject({ check: 'health', result: 'PASS' });
    expect(checks.filter((c) => c.method === 'GET' && c.check !== 'health')).toHaveLength(2);
    for (const c of checks.slice(1)) {
      if (c.check.endsWith('(undo)')) expect([c.result, c.reason]).toEqual(['SKIP', 'nothing was created']);
      else {
        const expected = `expected ${c.method === 'GET' ? 200 : 201}, got 401 ${c.check.startsWith('interessenten') ? 'api_key_ungueltig: Der API-Schlüssel wurde widerrufen.' : 'api_key_invalid: The API key was revoked.'}`;
        expect([c.status, c.result, c.reason]).toEqual([401, 'FAIL', expected]);
      }
    }
    expectNoKey(run, revoked.key);
  });

  it('fails with a well-formed key the service does not know and exits 1, in the table too', async () => {
    const unknown = generateKey(agentPlatformDescriptor.keyPrefix, 'sandbox').plaintext;
    const run = await smoke(['--base-url', url(ports.agents), '--key', unknown]);
    expect(run.code).toBe(1);
    // --key still works, with a warning that the key is on the command line.
    expect(run.stderr).toBe(
      'Warning: --key puts the API key on the command line, where process lists (ps) and CI logs (pnpm echoes the command) show it; put it in an environment variable and pass its name with --key-env NAME.\n',
    );
    expect(run.stdout).toMatch(
      /agents: list +GET \/v1\/agents\?limit=1 +401 +\d+ {2}FAIL {2}expected 200, got 401 api_key_invalid: The API key is not known\.$/m,
    );
    expect(run.stdout.trim().split('\n').at(-1)).toBe('FAIL: 4 checks, 1 passed, 2 failed, 1 skipped');
    expectNoKey(run, unknown);
  });

  it('fails the writes of a key without write scopes, with the code in the reason', async () => {
    const readOnly = await addKey(db.prisma, agents, { service: agentPlatformDescriptor, scopes: ['agents:read'] });
    const run = await smoke(['--base-url', url(ports.agents), '--key-env', 'SMOKE_KEY', '--json'], {
      SMOKE_KEY: readOnly.key,
    });
    expect(run.code).toBe(1);
    expect(checksOf(run).map((c) => [c.check, c.status, c.result])).toEqual([
      ['health', 200, 'PASS'],
      ['agents: list', 200, 'PASS'],
      ['agents: create', 403, 'FAIL'],
      ['agents: retire (undo)', null, 'SKIP'],
    ]);
    expect(checksOf(run)[2].reason).toMatch(/^expected 201, got 403 scope_missing/);
  });

  it('reports an unreachable base URL in one line, skips the rest and exits 1', async () => {
    const closed = await freePort();
    const run = await smoke([
      '--base-url',
      url(closed),
      '--key-env',
      'SMOKE_PM_KEY',
      '--base-url',
      url(ports.agents),
      '--key-env',
      'SMOKE_AP_KEY',
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      new RegExp(`^ {2}health +GET /health/ready +- +\\d+ {2}FAIL {2}connection refused \\(ECONNREFUSED\\)$`, 'm'),
    );
    expect(run.stdout).toMatch(
      /^ {2}properties: list +GET \/v1\/properties\?limit=1 +- +0 {2}SKIP {2}not run: the service did not answer$/m,
    );
    // The healthy service is still checked.
    expect(run.stdout).toMatch(/^ {2}agents: retire \(undo\) +POST \/v1\/agents\/agt_\w+\/retire +200 +\d+ {2}PASS$/m);
    expect(run.stdout + run.stderr).not.toMatch(/\n\s+at |Error:/);
    expect(run.stderr).toBe('');
    expectNoKey(run, property.key);
  });

  it('gives up on a service that does not answer after --timeout seconds', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    try {
      const run = await smoke(['--base-url', url(port), '--key-env', 'SMOKE_AP_KEY', '--timeout', '1', '--json']);
      expect(run.code).toBe(1);
      const [health] = checksOf(run);
      expect([health.result, health.reason]).toEqual(['FAIL', 'no answer within 1 s']);
      expect(health.duration_ms).toBeGreaterThanOrEqual(900);
      expect(health.duration_ms).toBeLessThan(5_000);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

describe('usage errors exit 2 with one line and the usage, never the key', () => {
  const key = () => property.key;
  const cases: [string, () => string[], RegExp][] = [
    ['no arguments', () => [], /^Give at least one --base-url and --key-env pair\.$/],
    [
      'a key without a base URL',
      () => ['--key-env', 'SMOKE_PM_KEY'],
      /^0 --base-url but 1 --key-env\/--key: give them in pairs\.$/,
    ],
    ['a base URL without its value', () => ['--base-url', '--key', key()], /^--base-url needs a value\.$/],
    ['an unknown option', () => ['--base-url', url(1), '--key', key(), '--verbose'], /^Unknown option --verbose\.$/],
    [
      'a key passed without --key',
      () => ['--base-url', url(1), key()],
      /^Unexpected value in position 3: values follow --base-url, --key-env, --key or --timeout\.$/,
    ],
    [
      'a key of no known service',
      () => ['--base-url', url(1), '--key', `zz${key().slice(2)}`],
      /^The key zz_test_\w{4}… is not a key of a known service \(its prefix must be one of pm_, ap_, then test_ or live_\)\.$/,
    ],
    [
      'something that is not a key',
      () => ['--base-url', url(1), '--key', 'hunter2'],
      /^The key hunter2… is not a key of a known service/,
    ],
    [
      'a base URL that is not one',
      () => ['--base-url', 'localhost:3000', '--key', key()],
      /^--base-url must start with http:\/\/ or https:\/\/, not localhost:\/\/\.$/,
    ],
    [
      'a timeout that is not a number',
      () => ['--base-url', url(1), '--key', key(), '--timeout', 'soon'],
      /^--timeout must be a number of seconds from 0 to 300, not "soon"\.$/,
    ],
  ];
  it.each(cases)('%s', async (_name, args, message) => {
    const run = await smoke(args());
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    const [first, usage] = run.stderr.split('\n');
    expect(first).toMatch(message);
    expect(usage).toMatch(/^Usage: pnpm smoke --base-url <url> --key-env <NAME>/);
    expectNoKey(run, property.key);
    expect(run.stderr).not.toContain(`zz${property.key.slice(2, 13)}`);
  });

  it('--key-env: a variable that is not set, is empty, holds no key, or a key given as the name; never the value', async () => {
    const value = 'hunter2-is-no-key';
    const cases: [string[], Record<string, string>, string][] = [
      [['--key-env', 'SMOKE_UNSET_KEY'], {}, 'The environment variable SMOKE_UNSET_KEY (--key-env) is not set.'],
      [
        ['--key-env', 'SMOKE_EMPTY_KEY'],
        { SMOKE_EMPTY_KEY: ' \n' },
        'The environment variable SMOKE_EMPTY_KEY (--key-env) is empty.',
      ],
      [
        ['--key-env', 'SMOKE_WRONG_KEY'],
        { SMOKE_WRONG_KEY: value },
        'The key in SMOKE_WRONG_KEY (--key-env) is not a key of a known service (its prefix must be one of pm_, ap_, then test_ or live_).',
      ],
      [
        ['--key-env', property.key],
        {},
        `--key-env takes the name of an environment variable holding the key, not the key (${property.key.slice(0, 12)}…); e.g. --key-env SMOKE_PM_KEY.`,
      ],
      [
        ['--key-env', 'SMOKE-PM'],
        {},
        '--key-env takes the name of an environment variable (letters, digits, _), not "SMOKE-PM…"; e.g. --key-env SMOKE_PM_KEY.',
      ],
    ];
    for (const [args, env, message] of cases) {
      const run = await smoke(['--base-url', url(ports.property), ...args], env);
      expect([run.code, run.stdout], message).toEqual([2, '']);
      expect(run.stderr.split('\n')[0]).toBe(message);
      expect(run.stderr).not.toContain(value.slice(0, 5));
      expectNoKey(run, property.key);
    }
  });

  it('prints the usage with --help and exits 0', async () => {
    const run = await smoke(['--help']);
    expect([run.code, run.stdout.split('\n')[0]]).toEqual([0, expect.stringMatching(/^Usage: pnpm smoke/)]);
  });
});

it("knows exactly the services' key prefixes", () => {
  expect(Object.keys(SMOKE_SERVICES).sort()).toEqual(
    [agentPlatformDescriptor.keyPrefix, propertyDescriptor.keyPrefix].sort(),
  );
  expect(SMOKE_SERVICES[propertyDescriptor.keyPrefix].name).toBe(propertyDescriptor.names.en);
  expect(SMOKE_SERVICES[agentPlatformDescriptor.keyPrefix].name).toBe(agentPlatformDescriptor.names.en);
});
