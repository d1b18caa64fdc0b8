// `pnpm contract` as an integrator runs it: a child process against the services started as
// `pnpm start` starts them, against a server that breaks the contract, and with a live key.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKey } from '@platform/auth';
import { runScript } from '@platform/testkit';
import { contractRun } from './harness.js';

const run = contractRun(['property-api', 'leads-api', 'agent-platform-api']);

/** The keys as an integrator passes them: in environment variables named with --key-env. */
const contract = (args: string[], env: Record<string, string> = {}) =>
  runScript('contract/cli.ts', args, {
    ...process.env,
    CONTRACT_PM_KEY: run.property.key,
    CONTRACT_AP_KEY: run.agents.key,
    ...env,
  });

let broken: Server;
beforeAll(async () => {
  const created = await fetch(`${run.urls.property}/v1/properties`, {
    method: 'POST',
    headers: { apikey: run.property.key, 'content-type': 'application/json' },
    body: JSON.stringify({
      type: 'apartment',
      title: 'Contract CLI',
      address: { postal_code: '10115', city: 'Berlin' },
    }),
  });
  expect(created.status).toBe(201);
  // Answers every request with a property list that lacks its `page`: a deployment off contract.
  broken = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}'));
  await new Promise<void>((resolve) => broken.listen(0, '127.0.0.1', resolve));
});
afterAll(() => new Promise<void>((resolve) => broken.close(() => resolve())));

describe('pnpm contract', () => {
  it('passes against the services with sandbox keys of both from the environment, printing a table', async () => {
    const result = await contract([
      '--base-url',
      run.urls.property,
      '--key-env',
      'CONTRACT_PM_KEY',
      '--base-url',
      run.urls.agents,
      '--key-env',
      'CONTRACT_AP_KEY',
    ]);
    expect(result.stderr).toBe('');
    expect(result.stdout.split('\n').filter((line) => /\bFAIL\b/.test(line))).toEqual([]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^DOCUMENT\s+OPERATION\s+CHECK\s+STATUS\s+RESULT/);
    expect(result.stdout).toMatch(/property-api\s+getProperty\s+contract\s+200\s+PASS/);
    expect(result.stdout).toMatch(/agent-platform-api\s+listAgents\s+contract\s+200\s+PASS/);
    expect(result.stdout).toMatch(/leads-api\s+interessentenAuflisten\s+contract\s+200\s+PASS/);
    expect(result.stdout).toMatch(/\d+ passed, 0 failed, \d+ skipped/);
    for (const key of [run.property.key, run.agents.key]) expect(result.stdout).not.toContain(key.slice(0, 13));
  }, 120_000);

  it('fails, naming the operation and the problem, against a deployment that breaks the contract', async () => {
    const port = (broken.address() as AddressInfo).port;
    const result = await contract(['--base-url', `http://127.0.0.1:${port}`, '--key', run.property.key, '--json']);
    expect(result.code).toBe(1);
    // --key still works, with a warning; the key itself is printed nowhere.
    expect(result.stderr).toMatch(/^Warning: --key puts the API key on the command line, .* --key-env NAME\.\n$/);
    expect(result.stdout + result.stderr).not.toContain(run.property.key.slice(0, 13));
    const report = JSON.parse(result.stdout) as {
      ok: boolean;
      checks: { operation: string; result: string; problem: string }[];
    };
    expect(report.ok).toBe(false);
    expect(report.checks).toContainEqual(
      expect.objectContaining({
        operation: 'listProperties',
        result: 'FAIL',
        problem: expect.stringContaining("must have required property 'page'"),
      }),
    );
  }, 60_000);

  it('names a --key-env variable that is unset or empty, never a value', async () => {
    for (const [env, message] of [
      [{}, 'The environment variable CONTRACT_NONE (--key-env) is not set.'],
      [{ CONTRACT_NONE: '' }, 'The environment variable CONTRACT_NONE (--key-env) is empty.'],
    ] as const) {
      const result = await contract(['--base-url', run.urls.property, '--key-env', 'CONTRACT_NONE'], env);
      expect([result.code, result.stdout, result.stderr.split('\n')[0]]).toEqual([2, '', message]);
      expect(result.stderr).toContain('Usage: pnpm contract --base-url <url> --key-env <NAME>');
    }
  });

  it('refuses a live key before sending anything', async () => {
    const live = generateKey('pm', 'production').plaintext;
    const result = await contract(['--base-url', run.urls.property, '--key', live]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/is a live key: run the contract checks with a sandbox key/);
    expect(result.stderr).not.toContain(live);
  });
});
