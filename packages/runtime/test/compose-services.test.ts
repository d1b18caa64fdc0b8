// The commands of the production compose configuration that can run without a Docker engine, run
// for real: Redis's (with the machine's redis-server; the password must stay out of its command
// line) and the SeaweedFS scripts. The SeaweedFS server itself is not run here (no engine).
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, until } from '@platform/testkit';
import { asRun, PRODUCTION, PRODUCTION_ENV, resolved, ROOT, run } from './compose-config.js';

const services = () => resolved(PRODUCTION, PRODUCTION_ENV).services;

const tempDirs: string[] = [];
/** A new temp folder, removed after this file's tests. */
function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("production's Redis command", () => {
  let redis: ChildProcess | undefined;
  afterAll(async () => {
    // Awaits its exit: it writes into its folder while it stops, which is removed after.
    if (!redis || redis.exitCode !== null || redis.signalCode !== null) return;
    const exited = new Promise((resolve) => redis!.once('exit', resolve));
    redis.kill();
    await exited;
  });

  it('keeps the password off the command line, and the health check authenticates with it', async () => {
    const service = services().redis;
    const password = service.environment!.REDIS_PASSWORD!;
    expect(password).toBe(PRODUCTION_ENV.REDIS_PASSWORD);
    const dir = tempDir('compose-redis-');
    // Stands in for the image's docker-entrypoint.sh (as root it only drops to the user redis, then
    // runs its arguments): the container's port, address and data dir are the test's, and Redis keeps
    // the command line it was started with (it replaces it with a title by default, which would hide
    // a password given there from /proc but not from `docker inspect` or a `ps` during start).
    writeFileSync(
      join(dir, 'docker-entrypoint.sh'),
      `#!/bin/sh\nserver=$1; shift\nexec "$server" --port "$TEST_PORT" --bind 127.0.0.1 --dir "${dir}" --set-proc-title no "$@"\n`,
    );
    chmodSync(join(dir, 'docker-entrypoint.sh'), 0o755);
    const port = await freePort();
    const [shell, ...args] = asRun([...(service.entrypoint ?? []), ...(service.command ?? [])]);
    // What `docker inspect`, `docker ps --no-trunc` and compose show as the container's command.
    expect(JSON.stringify([shell, ...args])).not.toContain(password);
    redis = spawn(shell!, args, {
      env: { PATH: `${dir}:${process.env.PATH}`, ...service.environment, TEST_PORT: String(port) },
      stdio: 'ignore',
    });
    const [, ...probe] = asRun(service.healthcheck?.test ?? []);
    const ping = (env: Record<string, string>) =>
      run(probe[0]!, ['-p', String(port), ...probe.slice(1)], { env }).stdout.trim();
    expect(probe).toEqual(['redis-cli', 'ping']);
    await until(async () => (ping(service.environment!) === 'PONG' ? true : undefined), 15_000);

    // The shell exec'd the entrypoint, which exec'd redis-server: one process, its command line clean.
    const cmdline = readFileSync(`/proc/${redis.pid}/cmdline`, 'utf8').split('\0');
    expect(cmdline[0]).toMatch(/redis-server/);
    expect(cmdline.join(' ')).toContain('--appendonly yes --maxmemory-policy noeviction');
    expect(cmdline.join(' ')).not.toContain(password);
    expect(readFileSync(`/proc/${redis.pid}/environ`, 'utf8')).toContain(`REDIS_PASSWORD=${password}`);

    expect(ping({})).toMatch(/NOAUTH/);
    expect(ping({ REDISCLI_AUTH: 'wrong' })).toMatch(/NOAUTH/);
    expect(ping({ REDISCLI_AUTH: password })).toBe('PONG');
  });
});

describe("production's SeaweedFS", () => {
  const script = join(ROOT, 'deploy/seaweedfs/s3-identities.sh');

  it('starts the S3 gateway with the identities file the script writes, from the seaweedfs service environment', () => {
    const service = services().seaweedfs;
    const command = asRun(service.command ?? []).join('\n');
    const file = /s3-identities\.sh (\S+)/.exec(command)?.[1];
    expect(file).toBeDefined();
    expect(command).toContain(`-s3.config=${file}`);
    expect(command).toMatch(/^exec \/entrypoint\.sh server .*-s3 /m);
    expect(service.volumes).toContain(`${join(ROOT, 'deploy/seaweedfs')}:/deploy/seaweedfs:ro`);
    expect(services()['seaweedfs-init'].volumes).toContain(`${join(ROOT, 'deploy/seaweedfs')}:/deploy/seaweedfs:ro`);
  });

  it("writes one identity, the apps' key, allowed to read, write and list their bucket only, readable by its owner only", () => {
    const environment = services().seaweedfs.environment!;
    const file = join(tempDir('compose-seaweedfs-'), 's3.json');
    const result = run('sh', [script, file], { env: environment });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      identities: [
        {
          name: 'platform-app',
          credentials: [{ accessKey: PRODUCTION_ENV.S3_ACCESS_KEY_ID, secretKey: PRODUCTION_ENV.S3_SECRET_ACCESS_KEY }],
          actions: ['Read:platform-files', 'Write:platform-files', 'List:platform-files'],
        },
      ],
    });
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it.each([
    ['S3_SECRET_ACCESS_KEY', 'has"quote'],
    ['S3_SECRET_ACCESS_KEY', ''],
    ['S3_ACCESS_KEY_ID', 'a b'],
    ['S3_BUCKET', 'x\\y'],
  ])('refuses %s=%j, which the JSON could not hold as it is, naming the variable', (name, value) => {
    const file = join(tempDir('compose-seaweedfs-'), 's3.json');
    const result = run('sh', [script, file], { env: { ...services().seaweedfs.environment!, [name]: value } });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`${name} must be set and hold only letters, digits`);
  });

  it('creates the bucket only when the bucket list lacks it, and fails when it is still missing', () => {
    // `weed` stands in for the SeaweedFS shell: it records the commands and lists what was created.
    const dir = tempDir('compose-seaweedfs-init-');
    writeFileSync(
      join(dir, 'weed'),
      `#!/bin/sh\nread -r line\necho "$* | $line" >> "${dir}/calls"\ncase $line in\n  s3.bucket.list) [ -f "${dir}/created" ] && printf '  %s\\tsize:0\\n' "$(cat "${dir}/created")" ;;\n  s3.bucket.create*) [ -n "$CREATE" ] && echo "$S3_BUCKET" > "${dir}/created" ;;\nesac\nexit 0\n`,
    );
    chmodSync(join(dir, 'weed'), 0o755);
    const init = services()['seaweedfs-init'];
    const [, , ...command] = [...(init.entrypoint ?? []), ...asRun(init.command ?? [])];
    const script = command[0]!.replace('/deploy/seaweedfs', join(ROOT, 'deploy/seaweedfs'));
    const once = (env: Record<string, string>) =>
      run('sh', ['-ec', script], { env: { PATH: `${dir}:${process.env.PATH}`, ...init.environment, ...env } });

    const refused = once({});
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('could not create the bucket platform-files');
    const created = once({ CREATE: '1' });
    expect(created.stdout).toContain('bucket platform-files created');
    expect(created.status).toBe(0);
    const again = once({ CREATE: '1' });
    expect(again.stdout).toContain('bucket platform-files exists');
    const calls = readFileSync(join(dir, 'calls'), 'utf8').trim().split('\n');
    expect(calls.filter((call) => call.includes('s3.bucket.create'))).toEqual([
      'shell -master=seaweedfs:9333 -filer=seaweedfs:8888 | s3.bucket.create -name platform-files -owner platform-app',
      'shell -master=seaweedfs:9333 -filer=seaweedfs:8888 | s3.bucket.create -name platform-files -owner platform-app',
    ]);
  });
});
