// Every port of a start is checked before anything starts: a taken PROPERTY_PORT is said before
// initdb, migrations, Redis or the worker run, and every clash is said at once. The local Redis
// of the same DATA_DIR (another process of this deployment) is no clash.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { until } from '@platform/testkit';
import { loadConfig, SANDBOX_SECRETS_FILE } from '../src/config.js';
import { portProblems } from '../src/port-check.js';
import { cleanUp, freePort, occupy, runStart, startEnv, tempDir, type StartResult } from './startup-process.js';

afterAll(cleanUp);

/**
 * Exit 1, and nothing of the embedded PostgreSQL or the local Redis started or made. (Not a wall
 * time: loading the apps' code takes from 3 s on an idle machine to 40 s on a busy CI runner.)
 */
function expectRefusedBeforeStarting(result: StartResult, env: Record<string, string>): void {
  expect(result.code, result.stderr).toBe(1);
  expect(result.stdout + result.stderr).not.toMatch(/initdb|migration|PostgreSQL started|redis-server|listening/i);
  expect(existsSync(join(env.DATA_DIR!, 'postgres'))).toBe(false);
  expect(existsSync(join(env.DATA_DIR!, 'redis'))).toBe(false);
}

describe.concurrent('pnpm start checks every port before anything starts', { timeout: 90_000 }, () => {
  it('a taken PROPERTY_PORT stops it before the embedded PostgreSQL and Redis are started', async () => {
    const env = await startEnv({ LOG_LEVEL: 'info' });
    const blocker = await occupy(Number(env.PROPERTY_PORT));
    try {
      const result = await runStart(env, { timeoutMs: 80_000 });
      expectRefusedBeforeStarting(result, env);
      expect(result.stderr.trim().split('\n')).toEqual([
        `Port ${env.PROPERTY_PORT} (PROPERTY_PORT) is already in use on 127.0.0.1: stop what listens there, or set PROPERTY_PORT to a free port.`,
      ]);
    } finally {
      blocker.close();
    }
  });

  it('every taken port is named at once: both services, metrics, the embedded PostgreSQL and Redis', async () => {
    const env = await startEnv({ LOG_LEVEL: 'info' }, { metrics: true });
    const variables = ['PROPERTY_PORT', 'AGENT_PLATFORM_PORT', 'METRICS_PORT', 'EMBEDDED_PG_PORT', 'REDIS_PORT'];
    const blockers = await Promise.all(variables.map((variable) => occupy(Number(env[variable]))));
    try {
      const result = await runStart(env, { timeoutMs: 80_000 });
      expectRefusedBeforeStarting(result, env);
      const lines = result.stderr.trim().split('\n');
      expect(lines, result.stderr).toHaveLength(5);
      variables.forEach((variable, i) => {
        expect(lines[i]).toContain(`Port ${env[variable]} (${variable}) `);
        expect(lines[i]).toContain(`set ${variable} to a free port`);
      });
      expect(lines[3]).toContain('not by the embedded database of');
      expect(lines[4]).toContain('not by the local Redis of');
    } finally {
      for (const blocker of blockers) blocker.close();
    }
  });

  it('two variables set to the same port are named together', async () => {
    const env = await startEnv({ LOG_LEVEL: 'info' });
    env.AGENT_PLATFORM_PORT = env.PROPERTY_PORT!;
    const result = await runStart(env, { timeoutMs: 80_000 });
    expectRefusedBeforeStarting(result, env);
    expect(result.stderr.trim().split('\n')).toEqual([
      `Port ${env.PROPERTY_PORT} is set for PROPERTY_PORT and AGENT_PLATFORM_PORT: give each its own port (change all but one of them).`,
    ]);
  });
});

const answers = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1', () => (socket.end(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

describe('the local Redis of the same DATA_DIR', () => {
  it('is no clash when it answers to its password, and is one when it asks for none', async () => {
    const dataDir = tempDir('port-check-data-');
    mkdirSync(dataDir, { recursive: true });
    const password = 'the-local-redis-password';
    writeFileSync(join(dataDir, SANDBOX_SECRETS_FILE), JSON.stringify({ embedded_redis_password: password }));
    const problemsWith = async (args: string[]) => {
      const port = await freePort();
      const redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...args], {
        stdio: 'ignore',
      });
      try {
        await until(() => answers(port), 10_000);
        const config = loadConfig(
          { DATA_DIR: dataDir, DATABASE_URL: 'postgresql://u:p@127.0.0.1:1/db', REDIS_PORT: String(port) },
          dataDir,
        );
        return await portProblems({ ...config, metricsPort: 0 }, []);
      } finally {
        if (redis.exitCode === null && redis.signalCode === null) {
          const exited = new Promise((resolve) => redis.once('exit', resolve));
          redis.kill('SIGTERM');
          await exited;
        }
      }
    };
    expect(await problemsWith(['--requirepass', password])).toEqual([]);
    const [foreign, ...rest] = await problemsWith([]);
    expect(rest).toEqual([]);
    expect(foreign).toMatch(/\(REDIS_PORT\) is in use on 127\.0\.0\.1, but not by the local Redis of .*set REDIS_PORT/);
  }, 30_000);
});

describe('HOST', () => {
  const problemsOn = async (host: string) => {
    const dataDir = tempDir('port-check-host-');
    const config = loadConfig(
      { DATA_DIR: dataDir, HOST: host, DATABASE_URL: 'postgresql://u:p@127.0.0.1:1/db', REDIS_URL: 'redis://x' },
      dataDir,
    );
    // No metrics listener: its check would look HOST up a second time.
    return portProblems({ ...config, metricsPort: 0 }, [{ port: await freePort(), variable: 'PROPERTY_PORT' }]);
  };

  it('not an address of this machine is one line for all its ports, naming HOST', async () => {
    expect(await problemsOn('192.0.2.1')).toEqual([
      '192.0.2.1 (HOST) is not an address of this machine: set HOST to one of its addresses, e.g. 127.0.0.1 or 0.0.0.0.',
    ]);
  });

  it('a name that does not resolve is one line naming HOST, not a stack trace', async () => {
    expect(await problemsOn('no-such-host.invalid')).toEqual([
      'no-such-host.invalid (HOST) is not a name this machine can resolve: set HOST to one of its addresses, e.g. 127.0.0.1 or 0.0.0.0.',
    ]);
  }, 20_000);
});
