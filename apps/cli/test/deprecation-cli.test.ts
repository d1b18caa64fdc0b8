import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, startSmtpSink, TEST_PEPPER, type SmtpSink, type TestDatabase } from '@platform/testkit';
import { runCli } from '../src/run.js';
import type { CommandContext } from '../src/commands.js';

const NOW = new Date('2026-11-23T12:00:00Z');
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 86_400_000);
const SUNSET = new Date('2027-06-30T00:00:00Z');
const SUCCESSOR = 'https://api.example.test/v2/docs';
const PASSWORD = 'pa$$-w0rd-never-printed';

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let db: TestDatabase;
let sink: SmtpSink;
beforeAll(async () => {
  [db, sink] = await Promise.all([createTestDatabase(), startSmtpSink({ password: PASSWORD })]);
});
afterAll(async () => {
  await sink?.close();
  await db?.drop();
});

const cli = async (line: string, smtpUrl?: string) => {
  const context = async (): Promise<CommandContext> => ({
    db: db.prisma,
    environment: 'sandbox',
    pepper: TEST_PEPPER,
    storage: () => {
      throw new Error('no storage in these tests');
    },
    sandbox: () => {
      throw new Error('no sandbox in these tests');
    },
    now: () => NOW,
    smtp: { url: smtpUrl, from: 'api@platform.example' },
    deprecations: [{ version: 'v1', sunset: SUNSET, successor: SUCCESSOR }],
  });
  const result = await runCli(line.split(' '), context);
  return { ...result, json: () => JSON.parse(result.output) };
};

describe('application owners', () => {
  it('app set-owner stores a valid address and refuses bad ones and unknown apps', async () => {
    const accountId = (await cli('account create --name Owners --json')).json().id;
    const appId = (await cli(`app create --account ${accountId} --service property --name portal --json`)).json().id;
    const set = await cli(`app set-owner --app ${appId} --email ops@agency.example --json`);
    expect(set.exitCode).toBe(0);
    expect(set.json()).toMatchObject({ id: appId, owner_email: 'ops@agency.example' });
    expect((await db.prisma.application.findUniqueOrThrow({ where: { id: appId } })).owner_email).toBe(
      'ops@agency.example',
    );

    for (const bad of [
      'not-an-address',
      'ops@localhost',
      'a..b@agency.example',
      'ops@agency..example',
      'ops@-agency.example',
      `${'a'.repeat(64)}@${'b'.repeat(190)}.example`,
    ]) {
      const refused = await cli(`app set-owner --app ${appId} --email ${bad}`);
      expect(refused.exitCode, bad).toBe(2);
      expect(refused.output, bad).toMatch(/--email (must be an e-mail address|may have at most 254 characters)/);
    }
    expect((await cli(`app set-owner --app ${appId}`)).output).toContain('--email is required');
    const unknown = await cli('app set-owner --app app_nope --email ops@agency.example');
    expect(unknown).toMatchObject({ exitCode: 1, output: 'Error: No application app_nope.' });
    expect((await db.prisma.application.findUniqueOrThrow({ where: { id: appId } })).owner_email).toBe(
      'ops@agency.example',
    );
  });

  it('app create --owner-email stores the owner and refuses a bad address without creating the app', async () => {
    const accountId = (await cli('account create --name Creators --json')).json().id;
    const created = await cli(
      `app create --account ${accountId} --service agent_platform --name bot --owner-email team@org.example --json`,
    );
    expect(created.exitCode).toBe(0);
    expect(created.json()).toMatchObject({ name: 'bot', owner_email: 'team@org.example' });
    const withoutOwner = await cli(`app create --account ${accountId} --service agent_platform --name bot2 --json`);
    expect(withoutOwner.json().owner_email).toBeNull();

    const refused = await cli(
      `app create --account ${accountId} --service agent_platform --name bot3 --owner-email team@org`,
    );
    expect(refused.exitCode).toBe(2);
    expect(refused.output).toContain('--owner-email must be an e-mail address');
    expect(await db.prisma.application.count({ where: { account_id: accountId } })).toBe(2);
  });
});

describe('deprecation notices', () => {
  const apps: Record<string, string> = {};
  beforeAll(async () => {
    await db.prisma.account.create({ data: { id: 'acct_dep', name: 'Agency Berlin' } });
    const add = async (id: string, owner: string | null, calls: [string, Date][]) => {
      await db.prisma.application.create({
        data: { id, account_id: 'acct_dep', service: 'property', name: `${id} site`, owner_email: owner },
      });
      for (const [version, at] of calls)
        await db.prisma.applicationApiCall.create({
          data: { application_id: id, api_version: version, last_called_at: at },
        });
      apps[id] = id;
    };
    await add('app_dep_one', 'ops@agency.example', [['v1', daysAgo(2)]]);
    await add('app_dep_two', 'OPS@agency.example', [
      ['v1', daysAgo(10)],
      ['leads/v1', daysAgo(1)],
    ]);
    await add('app_dep_three', 'dev@partner.example', [['v1', daysAgo(1)]]);
    await add('app_dep_orphan', null, [['v1', daysAgo(3)]]);
    await add('app_dep_stale', 'old@partner.example', [['v1', daysAgo(40)]]);
    await add('app_dep_leads', 'leads@partner.example', [['leads/v1', daysAgo(1)]]);
  });
  const sinkUrl = () => sink.url('notices');
  const listed = (output: { applications: { id: string; notice: string }[] }) =>
    Object.fromEntries(output.applications.map((a) => [a.id, a.notice]));

  it('lists the applications that called the version within --since, with account, owner and last call; nothing is sent without SMTP_URL', async () => {
    const result = await cli('deprecation notices --version v1 --json');
    expect(result.exitCode).toBe(0);
    const report = result.json();
    expect(report).toMatchObject({
      version: 'v1',
      since: '30d',
      sunset: '2027-06-30T00:00:00.000Z',
      successor: SUCCESSOR,
      delivery: 'none (SMTP_URL is not set)',
      sent: 0,
      failed: 0,
    });
    expect(report.applications).toEqual([
      {
        id: 'app_dep_three',
        name: 'app_dep_three site',
        service: 'property',
        account_id: 'acct_dep',
        account_name: 'Agency Berlin',
        owner_email: 'dev@partner.example',
        last_called_at: daysAgo(1).toISOString(),
        notice: 'not_sent',
      },
      expect.objectContaining({ id: 'app_dep_one', owner_email: 'ops@agency.example', notice: 'not_sent' }),
      expect.objectContaining({ id: 'app_dep_orphan', owner_email: null, notice: 'no_owner' }),
      expect.objectContaining({ id: 'app_dep_two', last_called_at: daysAgo(10).toISOString(), notice: 'not_sent' }),
    ]);
    expect(listed((await cli('deprecation notices --version v1 --since 60d --json')).json())).toHaveProperty(
      'app_dep_stale',
    );
    expect(Object.keys(listed((await cli('deprecation notices --version leads/v1 --json')).json())).sort()).toEqual([
      'app_dep_leads',
      'app_dep_two',
    ]);
    expect(sink.messages).toEqual([]);
  });

  it.each([
    ['deprecation notices', '--version must be one of v1, leads/v1'],
    ['deprecation notices --version v2', '--version must be one of v1, leads/v1 (got "v2")'],
    ['deprecation notices --version v1 --since 30', '--since must be a number of days such as 30d'],
    ['deprecation notices --version v1 --since 0d', '--since must be a number of days such as 30d'],
  ])('explains a mistake: %s', async (line, message) => {
    const result = await cli(line);
    expect(result.exitCode).toBe(2);
    expect(result.output).toContain(message);
  });

  it('--dry-run lists only, also with SMTP_URL set', async () => {
    const result = await cli('deprecation notices --version v1 --dry-run --json', sinkUrl());
    expect(result.exitCode).toBe(0);
    expect(result.json()).toMatchObject({ delivery: 'dry_run', sent: 0 });
    expect(listed(result.json())).toEqual({
      app_dep_three: 'not_sent',
      app_dep_one: 'not_sent',
      app_dep_orphan: 'no_owner',
      app_dep_two: 'not_sent',
    });
    expect(sink.messages).toEqual([]);
  });

  it('sends each owner one plain-text notice through SMTP naming their applications, the sunset and the successor', async () => {
    const result = await cli('deprecation notices --version v1', sinkUrl());
    expect(result.exitCode).toBe(0);
    expect(result.output).not.toContain(PASSWORD);
    expect(result.output).toContain(`delivery: smtp smtp://127.0.0.1:${sink.port}`);
    const report = (await cli('deprecation notices --version v1 --dry-run --json')).json();
    expect(report.applications).toHaveLength(4);

    expect(sink.messages.map((m) => m.to).sort()).toEqual([['dev@partner.example'], ['ops@agency.example']]);
    for (const message of sink.messages) {
      expect(message).toMatchObject({ from: 'api@platform.example', user: 'notices' });
      expect(message.text).toMatch(/^Subject: API v1 is deprecated: sunset on 2027-06-30\r?$/m);
      expect(message.text).toMatch(/^Content-Type: text\/plain/m);
      expect(message.text).toContain('Wed, 30 Jun 2027 00:00:00 GMT');
      expect(message.text).toContain(`Its successor: ${SUCCESSOR}`);
    }
    const ops = sink.messages.find((m) => m.to[0] === 'ops@agency.example')!.text;
    expect(ops).toContain(
      `app_dep_one site (app_dep_one) of Agency Berlin (acct_dep), property-marketing service; last call ${daysAgo(2).toISOString()}`,
    );
    expect(ops).toContain(`app_dep_two site (app_dep_two)`);
    const partner = sink.messages.find((m) => m.to[0] === 'dev@partner.example')!.text;
    expect(partner).toContain('app_dep_three site (app_dep_three)');
    expect(partner).not.toContain('app_dep_one');
  });

  it('reports a notice that cannot be sent as failed with exit code 1, without printing the password', async () => {
    const before = sink.messages.length;
    const refusing = `smtp://notices:${encodeURIComponent(PASSWORD)}@127.0.0.1:${await closedPort()}`;
    const result = await cli('deprecation notices --version v1 --json', refusing);
    expect(result.exitCode).toBe(1);
    expect(result.output).not.toContain(PASSWORD);
    expect(result.output).not.toContain(encodeURIComponent(PASSWORD));
    const notices = listed(result.json());
    expect(notices.app_dep_orphan).toBe('no_owner');
    for (const id of ['app_dep_one', 'app_dep_two', 'app_dep_three'])
      expect(notices[id]).toMatch(/^failed: .*ECONNREFUSED/);
    expect(result.json()).toMatchObject({ sent: 0, failed: 3 });
    const human = await cli('deprecation notices --version v1', refusing);
    expect(human.exitCode).toBe(1);
    expect(human.output).not.toContain(PASSWORD);
    expect(sink.messages.length).toBe(before);
  });
});
