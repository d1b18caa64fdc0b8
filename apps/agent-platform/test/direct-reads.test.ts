import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction, type Db } from '@platform/db';
import { ApiError, CursorCodec, NEWEST_FIRST } from '@platform/http';
import { createTenant, newestFirstIds, walkPagesLikePrisma } from '@platform/testkit';
import { agentRepository, type AgentRow } from '../src/agents/repository.js';
import { agentPlatformDescriptor } from '../src/descriptor.js';
import { startAgentPlatformApp, validAgent, type AgentPlatformTestContext } from './helpers.js';

// The repository reads agents with SQL through the pg pool (and through $queryRawUnsafe in a
// transaction): every row must be exactly what Prisma's query layer reads.

let ctx: AgentPlatformTestContext;
let db: Db;
beforeAll(async () => {
  ctx = await startAgentPlatformApp();
  db = ctx.db.prisma;
});
afterAll(() => ctx.close());

async function create(overrides: Record<string, unknown> = {}, key = ctx.tenant.key): Promise<string> {
  const res = await ctx.send('POST', '/v1/agents', { ...validAgent(), ...overrides }, key);
  if (res.statusCode !== 201) throw new Error(`agent not created: ${res.statusCode} ${res.body}`);
  return res.json().id as string;
}

describe('agentRepository.find reads what Prisma reads', () => {
  let id: string;
  let expected: AgentRow;
  beforeAll(async () => {
    id = await create({
      description: 'Reads invoices, "quoted", with commas, and {braces}.',
      capabilities: ['ocr', 'classify:invoice', 'route.v2', 'de_de-extract'],
      data_classification: 'confidential',
      chargeback_rate: { amount_cents: 2_147_483_647, unit: 'per_hour' },
    });
    const retired = await ctx.send('POST', `/v1/agents/${id}/retire`);
    expect(retired.statusCode, retired.body).toBe(200);
    await db.agentDeployment.update({ where: { id }, data: { artifact_count: 3 } });
    expected = (await db.agentDeployment.findFirst({ where: { id, account_id: ctx.tenant.accountId } }))!;
  });

  it('has a fixture with every column set', () => {
    expect(Object.entries(expected).filter(([, value]) => value === null)).toEqual([]);
    expect(expected).toMatchObject({
      status: 'retired',
      capabilities: ['ocr', 'classify:invoice', 'route.v2', 'de_de-extract'],
      retired_at: expect.any(Date),
    });
  });

  it('reads the row on the client (the pg pool) as Prisma does', async () => {
    expect(agentRepository.direct).toBeDefined();
    expect(await agentRepository.find(db, ctx.tenant.accountId, id)).toStrictEqual(expected);
  });

  it('reads the row in a transaction ($queryRawUnsafe) as Prisma does', async () => {
    expect(await inTransaction(db, (tx) => agentRepository.find(tx, ctx.tenant.accountId, id))).toStrictEqual(expected);
  });

  it('reads an empty capability list and a missing description as Prisma does', async () => {
    const bare = await create({ capabilities: [] });
    const prisma = await db.agentDeployment.findFirst({ where: { id: bare, account_id: ctx.tenant.accountId } });
    expect(prisma).toMatchObject({ capabilities: [], description: null, retired_at: null });
    expect(await agentRepository.find(db, ctx.tenant.accountId, bare)).toStrictEqual(prisma);
    expect(await inTransaction(db, (tx) => agentRepository.find(tx, ctx.tenant.accountId, bare))).toStrictEqual(prisma);
  });

  it("does not find another account's agent, on the client or in a transaction", async () => {
    const theirs = await create({}, ctx.other.key);
    await expect(agentRepository.find(db, ctx.tenant.accountId, theirs)).rejects.toMatchObject({ code: 'not_found' });
    await expect(
      inTransaction(db, (tx) => agentRepository.find(tx, ctx.tenant.accountId, theirs)),
    ).rejects.toMatchObject({ code: 'not_found' });
    await expect(agentRepository.find(db, ctx.other.accountId, theirs)).resolves.toMatchObject({ id: theirs });
  });

  it('answers an unknown id with the 404 ApiError', async () => {
    const error = await agentRepository
      .find(db, ctx.tenant.accountId, 'agt_00000000000000000000000000')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'not_found', message: 'No agent with this id.' });
  });
});

describe('agentRepository.page lists what Prisma lists', () => {
  const cursors = new CursorCodec('direct-reads-test');
  let accountId: string;
  let key: string;
  const ids: string[] = [];

  beforeAll(async () => {
    // An account of its own, so that other tests' agents do not shift the pages.
    ({ accountId, key } = await createTenant(ctx.db.prisma, { service: agentPlatformDescriptor }));
    for (let i = 0; i < 9; i++)
      ids.push(await create({ name: `Agent ${i}`, capabilities: i % 2 ? [] : [`cap-${i}`] }, key));
    for (const id of ids.slice(0, 4))
      expect((await ctx.send('POST', `/v1/agents/${id}/retire`, undefined, key)).statusCode).toBe(200);
    // Equal created_at in pairs (one pair within the retired ones, one across statuses): the id breaks the tie.
    const at = (second: number) => new Date(Date.UTC(2026, 0, 10, 12, 0, second, 123));
    const times = [at(1), at(2), at(2), at(3), at(4), at(4), at(5), at(6), at(6)];
    for (const [i, id] of ids.entries())
      await db.agentDeployment.update({ where: { id }, data: { created_at: times[i] } });
    await create({ name: 'Not theirs' }, ctx.tenant.key);
  });

  /** Walks the list page by page with the repository and with Prisma, comparing each page. */
  const walk = (filters: Record<string, unknown>, limit: number, runner: Db | 'transaction' = db) =>
    walkPagesLikePrisma(
      (cursor) => {
        const request = { cursors, cursor, limit, filters, map: (row: AgentRow) => row };
        return runner === 'transaction'
          ? inTransaction(db, (tx) => agentRepository.page(tx, accountId, request))
          : agentRepository.page(runner, accountId, request);
      },
      (after, take) =>
        db.agentDeployment.findMany({
          where: { account_id: accountId, ...filters, ...after },
          orderBy: NEWEST_FIRST,
          take,
        }),
      limit,
    );
  const newestFirst = newestFirstIds;

  it('pages every agent of the account, newest first with the id breaking ties', async () => {
    const seen = await walk({ status: undefined }, 2);
    expect(seen).toEqual(newestFirst(await db.agentDeployment.findMany({ where: { account_id: accountId } })));
    expect(seen).toHaveLength(9);
    for (const [a, b] of [
      [1, 2],
      [4, 5],
      [7, 8],
    ]) {
      const [higher, lower] = ids[a] > ids[b] ? [ids[a], ids[b]] : [ids[b], ids[a]];
      expect(seen.indexOf(higher)).toBe(seen.indexOf(lower) - 1);
    }
  });

  it('pages with a status filter', async () => {
    expect(await walk({ status: 'retired' }, 2)).toEqual(
      newestFirst(await db.agentDeployment.findMany({ where: { account_id: accountId, status: 'retired' } })),
    );
    expect(await walk({ status: 'active' }, 3)).toHaveLength(5);
  });

  it('pages the same in a transaction', async () => {
    expect(await walk({ status: undefined }, 4, 'transaction')).toHaveLength(9);
    expect(await walk({ status: 'retired' }, 3, 'transaction')).toHaveLength(4);
  });

  it('splits a pair of equal created_at across two pages', async () => {
    // limit 1 ends the first page inside the newest pair (6 s, 6 s): the cursor must carry the id.
    const first = await agentRepository.page(db, accountId, {
      cursors,
      limit: 1,
      filters: {},
      map: (row: AgentRow) => row.id,
    });
    const second = await agentRepository.page(db, accountId, {
      cursors,
      cursor: first.page.next_cursor!,
      limit: 1,
      filters: {},
      map: (row: AgentRow) => row.id,
    });
    expect([...first.data, ...second.data].sort()).toEqual([ids[7], ids[8]].sort());
    expect(first.data[0] > second.data[0]).toBe(true);
  });
});
