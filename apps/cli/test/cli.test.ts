import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashKey, parseKey } from '@platform/auth';
import { blobPath, createFilesystemStorage, type BlobStorage } from '@platform/storage';
import { createTestDatabase, TEST_PEPPER, testSandbox, type TestDatabase } from '@platform/testkit';
import { runCli } from '../src/run.js';

let db: TestDatabase;
let blobRoot: string;
let storage: BlobStorage;
const sandbox = testSandbox();
beforeAll(async () => {
  db = await createTestDatabase();
  blobRoot = await mkdtemp(join(tmpdir(), 'cli-blobs-'));
  storage = createFilesystemStorage({ root: blobRoot });
});
afterAll(async () => {
  await sandbox.close();
  await db.drop();
  await rm(blobRoot, { recursive: true, force: true });
});

const cli = async (line: string, settings: { apiKeysPerApplication?: number } = {}) => {
  const result = await runCli(line.split(' '), async () => ({
    db: db.prisma,
    environment: 'sandbox',
    pepper: TEST_PEPPER,
    storage: () => storage,
    sandbox: () => sandbox,
    ...settings,
  }));
  return { ...result, json: () => JSON.parse(result.output) };
};

describe('operator CLI', () => {
  it('storage check: passes while every record has its blob, reports missing and altered blobs with exit code 1', async () => {
    const prisma = db.prisma;
    await prisma.account.create({ data: { id: 'acct_store', name: 'Store' } });
    await prisma.property.create({
      data: {
        id: 'prop_s',
        account_id: 'acct_store',
        type: 'house',
        title: 'House',
        address_postal_code: '10115',
        address_city: 'Berlin',
      },
    });
    await prisma.agentDeployment.create({
      data: {
        id: 'agt_s',
        account_id: 'acct_store',
        name: 'Agent',
        owning_team: 'Team',
        capabilities: [],
        chargeback_amount_cents: 1,
        chargeback_unit: 'per_request',
      },
    });
    const photo = await storage.put(Readable.from([Buffer.from('photo bytes')]));
    const card = await storage.put(Readable.from([Buffer.from('model card')]));
    const file = { account_id: 'acct_store', content_type: 'text/plain', filename: 'f' };
    await prisma.propertyMedia.create({
      data: {
        ...file,
        id: 'med_s',
        property_id: 'prop_s',
        kind: 'photo',
        position: 0,
        size: photo.size,
        sha256: photo.sha256,
      },
    });
    await prisma.agentArtifact.create({
      data: { ...file, id: 'art_s', agent_id: 'agt_s', kind: 'prompt', size: card.size, sha256: card.sha256 },
    });

    const ok = await cli('storage check --json');
    expect(ok.exitCode).toBe(0);
    expect(ok.json()).toEqual({ checked: 2, mismatches: [] });

    await storage.delete(photo.key);
    await writeFile(blobPath(blobRoot, card.key), 'tampered');
    const bad = await cli('storage check --json');
    expect(bad.exitCode).toBe(1);
    expect(bad.json()).toEqual({
      checked: 2,
      mismatches: [
        {
          record: 'agent_artifacts art_s',
          sha256: card.sha256,
          problem: 'different',
          actual_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        },
        { record: 'property_media med_s', sha256: photo.sha256, problem: 'missing' },
      ],
    });
    expect((await cli('storage check')).output).toContain('property_media med_s');
    await prisma.account.delete({ where: { id: 'acct_store' } });
  });

  it('creates an account, an application and a key, lists and revokes the key', async () => {
    const account = await cli('account create --name Agency --json');
    expect(account.exitCode).toBe(0);
    const accountId = account.json().id;
    expect(accountId).toMatch(/^acct_/);

    const app = await cli(`app create --account ${accountId} --service property --name website --json`);
    expect(app.exitCode).toBe(0);
    const appId = app.json().id;

    const key = await cli(`key create --app ${appId} --scopes properties:read,properties:write --json`);
    expect(key.exitCode).toBe(0);
    const created = key.json();
    expect(parseKey(created.key)).toEqual({ prefix: 'pm', environment: 'sandbox' });
    const stored = await db.prisma.apiKey.findUniqueOrThrow({ where: { id: created.id } });
    expect(stored.key_hash).toBe(hashKey(created.key, TEST_PEPPER));
    expect(stored.scopes).toEqual(['properties:read', 'properties:write']);

    const listed = await cli(`key list --app ${appId} --json`);
    expect(listed.json().keys).toEqual([expect.objectContaining({ id: created.id, revoked_at: null })]);
    expect(listed.output).not.toContain(created.key);

    const revoked = await cli(`key revoke ${created.id} --json`);
    expect(revoked.exitCode).toBe(0);
    expect(revoked.json().revoked_at).toEqual(expect.any(String));
  });

  it('refuses unknown scopes and scopes of the other service with a clear message', async () => {
    const accountId = (await cli('account create --name A --json')).json().id;
    const appId = (await cli(`app create --account ${accountId} --service agent_platform --name bot --json`)).json().id;
    const wrongService = await cli(`key create --app ${appId} --scopes agents:read,properties:read`);
    expect(wrongService.exitCode).toBe(2);
    expect(wrongService.output).toContain('Unknown scope(s) for the agent_platform service: properties:read.');
    expect(wrongService.output).toContain('agents:read');
    const unknown = await cli(`key create --app ${appId} --scopes agents:fly --json`);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.json().error).toMatch(/agents:fly/);
    expect(await db.prisma.apiKey.count({ where: { application_id: appId } })).toBe(0);
  });

  it('key create refuses one key more than the application may have (20 active by default, or API_KEYS_PER_APPLICATION); revoked keys do not count', async () => {
    const accountId = (await cli('account create --name Keys --json')).json().id;
    const appId = (await cli(`app create --account ${accountId} --service property --name many --json`)).json().id;
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const key = await cli(`key create --app ${appId} --scopes properties:read --json`);
      expect(key.exitCode).toBe(0);
      ids.push(key.json().id);
    }
    const refused = await cli(`key create --app ${appId} --scopes properties:read --json`);
    expect(refused.exitCode).toBe(2);
    expect(refused.json()).toEqual({
      error: `Application ${appId} already has 20 active API keys, the most an application may have (API_KEYS_PER_APPLICATION=20); revoke one first (pnpm cli key list --app ${appId}, then pnpm cli key revoke <keyId>).`,
    });
    expect(await db.prisma.apiKey.count({ where: { application_id: appId } })).toBe(20);

    expect((await cli(`key revoke ${ids[0]}`)).exitCode).toBe(0);
    expect((await cli(`key create --app ${appId} --scopes properties:read`)).exitCode).toBe(0);

    // A smaller cap of the deployment: this application is over it already, another one stops at 2.
    expect(
      (await cli(`key create --app ${appId} --scopes properties:read`, { apiKeysPerApplication: 2 })).output,
    ).toContain('already has 20 active API keys, the most an application may have (API_KEYS_PER_APPLICATION=2)');
    const small = (await cli(`app create --account ${accountId} --service property --name few --json`)).json().id;
    const codes = [];
    for (let i = 0; i < 3; i++)
      codes.push(
        (await cli(`key create --app ${small} --scopes properties:read`, { apiKeysPerApplication: 2 })).exitCode,
      );
    expect(codes).toEqual([0, 0, 2]);
  });

  it.each([
    ['app create --account acct_nope --service property --name x', 'No account acct_nope.'],
    ['app create --account a --service houses --name x', '--service must be property or agent_platform'],
    ['key create --app app_nope --scopes properties:read', 'No application app_nope.'],
    ['key revoke key_nope', 'No API key key_nope.'],
    ['account create', '--name is required.'],
    ['frobnicate', 'Unknown command'],
  ])('explains a mistake: %s', async (line, message) => {
    const result = await cli(line);
    // A record that does not exist: 1; a mistake on the command line: 2.
    expect(result.exitCode).toBe(message.startsWith('No ') ? 1 : 2);
    expect(result.output).toContain(message);
  });
});

describe('pnpm cli as a process', () => {
  it('prints exactly one JSON object with --json and uses DATABASE_URL', async () => {
    const root = fileURLToPath(new URL('../../..', import.meta.url));
    const { stdout } = await promisify(execFile)(
      `${root}node_modules/.bin/tsx`,
      ['apps/cli/src/main.ts', 'account', 'create', '--name', 'From the shell', '--json'],
      { cwd: root, env: { ...process.env, DATABASE_URL: db.url, API_KEY_PEPPER: TEST_PEPPER, APP_ENV: 'sandbox' } },
    );
    const output = JSON.parse(stdout);
    expect(Object.keys(output)).toEqual(['id', 'name', 'time_zone', 'created_at']);
    expect(await db.prisma.account.findUnique({ where: { id: output.id } })).toMatchObject({ name: 'From the shell' });
  });
});

describe('jobs run anonymise', () => {
  it('anonymises prospects past their retention date, now', async () => {
    const accountId = (await cli('account create --name Retention --json')).json().id;
    const base = {
      account_id: accountId,
      last_activity_at: new Date('2025-01-01'),
      created_at: new Date('2025-01-01'),
      updated_at: new Date('2025-01-01'),
    };
    await db.prisma.prospect.create({
      data: {
        ...base,
        id: 'int_expired',
        last_name: 'Alt',
        email: 'alt@example.de',
        retention_until: new Date('2025-06-30'),
      },
    });
    await db.prisma.prospect.create({
      data: {
        ...base,
        id: 'int_kept',
        last_name: 'Neu',
        email: 'neu@example.de',
        retention_until: new Date('2099-01-01'),
      },
    });
    const result = await cli('jobs run anonymise --json');
    expect(result.exitCode).toBe(0);
    expect(result.json()).toEqual({ job: 'anonymise', anonymised: 1 });
    expect(await db.prisma.prospect.findUnique({ where: { id: 'int_expired' } })).toMatchObject({
      last_name: null,
      email: null,
    });
    expect(await db.prisma.prospect.findUnique({ where: { id: 'int_kept' } })).toMatchObject({ last_name: 'Neu' });
    const unknown = (await cli('jobs run nothing')).output;
    expect(unknown).toMatch(
      /Unknown job "nothing"\. Jobs: anonymise, generate-listing, sweep-listings, .*prune-webhook-history, prune-idempotency-keys, notify-old-api-keys\.$/,
    );
    expect(unknown).toContain('generate-invoice, sweep-invoices');
    const flagged = await cli('jobs run anonymise --period 2026-11');
    expect(flagged.exitCode).toBe(2);
    expect(flagged.output).toBe('Error: Job anonymise does not take --period.');
  });

  it('jobs run chargebacks --period settles a closed month once and refuses an open one with one line', async () => {
    const accountId = (await cli('account create --name Platform --json')).json().id;
    const open = await cli(`jobs run chargebacks --period 2999-01 --account ${accountId}`);
    expect(open.exitCode).toBe(2);
    expect(open.output).toMatch(/^Error: The period 2999-01 is not closed yet: .*only a closed period is settled\.$/);
    const bad = await cli(`jobs run chargebacks --period 2026-13 --account ${accountId}`);
    expect(bad.exitCode).toBe(2);
    expect(bad.output).toMatch(/^Error: --period is not valid: Settle this month \(`YYYY-MM`/);
    const typo = await cli('jobs run chargebacks --account acct_typo');
    expect(typo.exitCode).toBe(2);
    expect(typo.output).toBe('Error: No account with the id acct_typo.');
    const settled = await cli(`jobs run chargebacks --period 2026-01 --account ${accountId} --json`);
    expect(settled.exitCode, settled.output).toBe(0);
    expect(settled.json().job).toBe('chargebacks');
    expect(
      await db.prisma.chargebackRun.findUnique({
        where: { account_id_period: { account_id: accountId, period: '2026-01' } },
      }),
    ).toMatchObject({ settlements: 0 });
  });

  it("sets the billing profile an account's invoices are issued with, and refuses what an invoice cannot carry", async () => {
    const accountId = (await cli('account create --name Makler --json')).json().id;
    const base = `account set-billing --account ${accountId} --name Makler --street Marktweg --postal-code 10115 --city Berlin --country de`;
    const set = await cli(
      `${base} --vat-id de123456789 --iban de89370400440532013000 --bic cobadeffxxx --payment-terms-days 10 --json`,
    );
    expect(set.exitCode, set.output).toBe(0);
    expect(await db.prisma.billingProfile.findUnique({ where: { account_id: accountId } })).toMatchObject({
      country: 'DE',
      vat_id: 'DE123456789',
      iban: 'DE89370400440532013000',
      bic: 'COBADEFFXXX',
      payment_terms_days: 10,
    });
    // Stored, but not yet enough for an e-invoice (XRechnung 3.0): the output says what to add.
    expect(set.json()).toMatchObject({
      e_invoice_ready: false,
      e_invoice_missing: [{ flag: '--contact' }, { flag: '--phone' }, { flag: '--email' }],
    });
    const complete = await cli(
      `${base} --vat-id DE123456789 --contact "Petra Makler" --phone "+49 30 1" --email rechnung@makler.example --json`,
    );
    expect(complete.json()).toMatchObject({ e_invoice_ready: true, e_invoice_missing: [] });
    const refusals: [string, string][] = [
      [base, 'give --tax-number or --vat-id'],
      [`${base} --tax-number 30/1 --iban DE89370400440532013001`, '--iban is not a valid IBAN'],
      [`${base} --tax-number 30/1 --country Germany`, '--country must be an ISO 3166 two-letter code'],
      [`${base} --tax-number 30/1 --payment-terms-days 400`, '--payment-terms-days must be a whole number'],
      [`account set-billing --account acct_missing --name X`, 'No account acct_missing.'],
    ];
    for (const [line, message] of refusals) {
      const result = await cli(line);
      expect(result.exitCode, line).toBe(message.startsWith('No account') ? 1 : 2);
      expect(result.output, line).toContain(message);
    }
  });
});
