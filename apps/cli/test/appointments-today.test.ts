import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_PEPPER, type TestDatabase } from '@platform/testkit';
import { runCli } from '../src/run.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

// 2026-07-01 22:30 UTC: already 2 July in Berlin (00:30 CEST), still 1 July in New York (18:30 EDT).
const NOW = new Date('2026-07-01T22:30:00Z');
const cli = async (line: string) => {
  const result = await runCli(line.split(' '), async () => ({
    db: db.prisma,
    environment: 'sandbox',
    pepper: TEST_PEPPER,
    storage: () => {
      throw new Error('no storage');
    },
    sandbox: () => {
      throw new Error('no sandbox');
    },
    now: () => NOW,
  }));
  return { ...result, json: () => JSON.parse(result.output) };
};

async function appointment(accountId: string, id: string, startsAt: string, hours: number, host: string | null) {
  const prisma = db.prisma;
  const suffix = `${accountId}_${id}`;
  if (!(await prisma.property.findUnique({ where: { id: `prop_${accountId}` } }))) {
    await prisma.property.create({
      data: {
        id: `prop_${accountId}`,
        account_id: accountId,
        type: 'apartment',
        title: 'Flat',
        address_postal_code: '10115',
        address_city: 'Berlin',
      },
    });
  }
  await prisma.prospect.create({
    data: {
      id: `int_${suffix}`,
      account_id: accountId,
      first_name: 'Erika',
      last_name: 'Mustermann',
      email: 'erika@example.de',
      last_activity_at: NOW,
      retention_until: new Date('2027-01-01'),
    },
  });
  await prisma.inquiry.create({
    data: {
      id: `inq_${suffix}`,
      account_id: accountId,
      property_id: `prop_${accountId}`,
      prospect_id: `int_${suffix}`,
      score: 50,
      weights_version: 'v1',
      score_details: {},
      scored_at: NOW,
    },
  });
  const start = new Date(startsAt);
  await prisma.appointment.create({
    data: {
      id,
      account_id: accountId,
      property_id: `prop_${accountId}`,
      inquiry_id: `inq_${suffix}`,
      prospect_id: `int_${suffix}`,
      host,
      starts_at: start,
      ends_at: new Date(start.getTime() + hours * 3_600_000),
    },
  });
}

describe('account time zone', () => {
  it('creates an account in Europe/Berlin by default or in the given zone, and changes it', async () => {
    expect((await cli('accounts create --name Default --json')).json()).toMatchObject({ time_zone: 'Europe/Berlin' });
    const created = await cli('accounts create --name Lisbon --time-zone Europe/Lisbon --json');
    expect(created.exitCode).toBe(0);
    const id = created.json().id;
    expect(created.json()).toMatchObject({ id, name: 'Lisbon', time_zone: 'Europe/Lisbon' });

    const changed = await cli(`accounts set-time-zone --account ${id} --time-zone America/New_York --json`);
    expect(changed.exitCode).toBe(0);
    expect(changed.json()).toEqual({ id, time_zone: 'America/New_York', previous_time_zone: 'Europe/Lisbon' });
    expect(await db.prisma.account.findUniqueOrThrow({ where: { id } })).toMatchObject({
      time_zone: 'America/New_York',
    });
  });

  it.each([
    [
      'accounts create --name X --time-zone Mars/Olympus',
      '--time-zone must be an IANA time zone such as Europe/Berlin (got "Mars/Olympus").',
    ],
    ['account create --name X --time-zone +02:00', '--time-zone must be an IANA time zone'],
    ['accounts set-time-zone --account acct_nope --time-zone Europe/Berlin', 'No account acct_nope.'],
    ['accounts set-time-zone --time-zone Europe/Berlin', '--account is required.'],
    ['accounts set-time-zone --account acct_nope', '--time-zone is required'],
    ['appointments today', '--account is required.'],
    ['appointments today --account acct_nope', 'No account acct_nope.'],
  ])('explains a mistake: %s', async (line, message) => {
    const result = await cli(line);
    // An account that does not exist: 1; a mistake on the command line: 2.
    expect(result.exitCode).toBe(message.startsWith('No account') ? 1 : 2);
    expect(result.output).toContain(message);
  });

  it('refuses an invalid zone without creating or changing anything', async () => {
    const before = await db.prisma.account.count();
    expect((await cli('accounts create --name Nowhere --time-zone Nowhere/Town')).exitCode).toBe(2);
    expect(await db.prisma.account.count()).toBe(before);
  });
});

describe('appointments today', () => {
  it("lists the appointments starting on the account's local day, in local time, ids and times only", async () => {
    await db.prisma.account.create({ data: { id: 'acct_today', name: 'Today' } });
    await db.prisma.account.create({ data: { id: 'acct_other', name: 'Other' } });
    await appointment('acct_today', 'apt_ny_evening', '2026-07-01T20:00:00Z', 1, 'Agent A'); // Berlin: 1 July 22:00; New York: 1 July 16:00
    await appointment('acct_today', 'apt_berlin_morning', '2026-07-02T08:00:00Z', 1.5, null); // Berlin: 2 July 10:00; New York: 2 July 04:00
    await appointment('acct_today', 'apt_berlin_late', '2026-07-02T21:30:00Z', 1, 'Agent B'); // Berlin: 2 July 23:30 (ends the next day)
    await appointment('acct_today', 'apt_berlin_tomorrow', '2026-07-02T22:00:00Z', 1, 'Agent C'); // Berlin: 3 July 00:00
    await appointment('acct_other', 'apt_other_account', '2026-07-02T09:00:00Z', 1, 'Agent A');

    const berlin = await cli('appointments today --account acct_today --json');
    expect(berlin.exitCode).toBe(0);
    expect(berlin.json()).toEqual({
      account_id: 'acct_today',
      time_zone: 'Europe/Berlin',
      date: '2026-07-02',
      appointments: [
        {
          id: 'apt_berlin_morning',
          property_id: 'prop_acct_today',
          status: 'proposed',
          starts_at: '2026-07-02T10:00:00+02:00',
          ends_at: '2026-07-02T11:30:00+02:00',
          host: null,
        },
        {
          id: 'apt_berlin_late',
          property_id: 'prop_acct_today',
          status: 'proposed',
          starts_at: '2026-07-02T23:30:00+02:00',
          ends_at: '2026-07-03T00:30:00+02:00',
          host: 'Agent B',
        },
      ],
    });
    for (const personal of ['Erika', 'Mustermann', 'example.de', 'int_']) expect(berlin.output).not.toContain(personal);

    await cli('accounts set-time-zone --account acct_today --time-zone America/New_York');
    const newYork = (await cli('appointments today --account acct_today --json')).json();
    expect(newYork).toMatchObject({ time_zone: 'America/New_York', date: '2026-07-01' });
    expect(newYork.appointments).toEqual([
      {
        id: 'apt_ny_evening',
        property_id: 'prop_acct_today',
        status: 'proposed',
        starts_at: '2026-07-01T16:00:00-04:00',
        ends_at: '2026-07-01T17:00:00-04:00',
        host: 'Agent A',
      },
    ]);

    const human = await cli('appointments today --account acct_today');
    expect(human.output).toContain('date: 2026-07-01');
    expect(human.output).toContain('apt_ny_evening');
  });

  it('says so when the account has none today', async () => {
    await db.prisma.account.create({ data: { id: 'acct_empty', name: 'Empty', time_zone: 'Asia/Tokyo' } });
    const result = await cli('appointments today --account acct_empty --json');
    expect(result.json()).toEqual({
      account_id: 'acct_empty',
      time_zone: 'Asia/Tokyo',
      date: '2026-07-02',
      appointments: [],
    });
  });
});
