// Connections that a PostgreSQL shutting down ends at awkward moments, played by a small server
// speaking the protocol's first messages, so that the moment is certain:
// - in the read that hands the connection over (ReadyForQuery of the start-up, then 57P01): the pool
//   has given it to its holder, who cannot yet listen for its errors. That 'error' event must not
//   end the process;
// - at the first statement (57P01 instead of an answer): Prisma reports it as its own "database
//   error" (P2039, P2010), which must still count as unavailable (503), not as a 500;
// - at the first statement without a word (the socket closed or reset, as a host or proxy going
//   away does): a reset is P2010 with the adapter's `ConnectionClosed` under Prisma's raw queries;
//   a plain close is pg's "Connection terminated unexpectedly", known by its message.
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrisma, inDirectTransaction, isDatabaseUnavailable, readRows, type PrismaClient } from '@platform/db';

const message = (type: string, body: Buffer) => {
  const head = Buffer.alloc(5);
  head.write(type, 0, 'latin1');
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
};
const int32 = (value: number) => {
  const buffer = Buffer.alloc(4);
  buffer.writeInt32BE(value);
  return buffer;
};
const fields = (entries: [string, string][]) =>
  Buffer.concat([...entries.map(([code, text]) => Buffer.from(`${code}${text}\0`, 'utf8')), Buffer.from([0])]);

const ready = Buffer.concat([
  message('R', int32(0)), // AuthenticationOk
  message('K', Buffer.concat([int32(1), int32(2)])), // BackendKeyData
  message('Z', Buffer.from('I')), // ReadyForQuery: the connection is handed over here
]);
const terminated = message(
  'E',
  fields([
    ['S', 'FATAL'],
    ['V', 'FATAL'],
    ['C', '57P01'],
    ['M', 'terminating connection due to administrator command'],
  ]),
);

type Behaviour =
  'ends-at-hand-over' | 'ends-at-first-statement' | 'closes-at-first-statement' | 'resets-at-first-statement';
const servers: Server[] = [];
const sockets = new Set<Socket>();

async function fakePostgres(behaviour: Behaviour): Promise<string> {
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.once('data', () => {
      // after the start-up message
      if (behaviour === 'ends-at-hand-over') return socket.end(Buffer.concat([ready, terminated]));
      socket.write(ready);
      socket.once('data', () => {
        if (behaviour === 'closes-at-first-statement') socket.end();
        else if (behaviour === 'resets-at-first-statement') socket.resetAndDestroy();
        else socket.end(terminated);
      });
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `postgresql://user:secret@127.0.0.1:${(server.address() as { port: number }).port}/db`;
}

const clients: PrismaClient[] = [];
const uncaught: unknown[] = [];
const record = (error: unknown) => uncaught.push(error);
const failureOf = (work: PromiseLike<unknown>) =>
  Promise.resolve(work).then(
    () => undefined,
    (error: unknown) => error,
  );
const settle = () => new Promise((resolve) => setTimeout(resolve, 50)); // a late 'error' event would come now

beforeAll(() => {
  process.on('uncaughtException', record);
});

afterAll(async () => {
  process.off('uncaughtException', record);
  await Promise.all(clients.map((client) => client.$disconnect()));
  for (const socket of sockets) socket.destroy();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

async function clientOf(behaviour: Behaviour): Promise<PrismaClient> {
  const client = createPrisma({ url: await fakePostgres(behaviour), maxConnections: 2 });
  clients.push(client);
  return client;
}

describe('a connection ended in the read that hands it over', () => {
  it('fails direct transactions, direct reads and Prisma transactions as unavailable, and the process lives on', async () => {
    const prisma = await clientOf('ends-at-hand-over');
    for (let i = 0; i < 3; i++) {
      expect(
        isDatabaseUnavailable(
          await failureOf(inDirectTransaction(prisma, async (tx) => tx.$queryRawUnsafe('SELECT 1'))),
        ),
      ).toBe(true);
      expect(isDatabaseUnavailable(await failureOf(readRows(prisma, 'SELECT 1', [])))).toBe(true);
      expect(
        isDatabaseUnavailable(await failureOf(prisma.$transaction(async (tx) => tx.$queryRawUnsafe('SELECT 1')))),
      ).toBe(true);
    }
    await settle();
    expect(uncaught).toEqual([]);
  });
});

describe('a connection ended at its first statement', () => {
  // 57P01 first; or no word at all: a plain close, or a reset.
  it.each(['ends-at-first-statement', 'closes-at-first-statement', 'resets-at-first-statement'] as const)(
    "%s: counts Prisma's wrapped errors and every other kind of query as unavailable",
    async (behaviour) => {
      const prisma = await clientOf(behaviour);
      const failures = [
        await failureOf(prisma.account.findFirst({ where: { id: 'acct_x' } })),
        await failureOf(prisma.$queryRawUnsafe('SELECT 1')),
        await failureOf(prisma.$executeRaw`SELECT ${1}::int`),
        await failureOf(prisma.$transaction(async (tx) => tx.account.count())),
        await failureOf(inDirectTransaction(prisma, async (tx) => tx.$executeRawUnsafe('SELECT 1'))),
        await failureOf(readRows(prisma, 'SELECT 1', [])),
      ];
      for (const failure of failures) expect(isDatabaseUnavailable(failure), String(failure)).toBe(true);
      await settle();
      expect(uncaught).toEqual([]);
    },
  );
});
