import { mkdtempSync, rmSync } from 'node:fs';
import { lookup } from 'node:dns/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { portProblems } from '../src/port-check.js';

// HOST=localhost: Fastify listens on every address the name has (127.0.0.1 and, where the
// machine has it, ::1), so the check probes each, and a port taken on any one of them shows.
const dataDir = mkdtempSync(join(tmpdir(), 'port-check-localhost-'));
let held: Server[] = [];
afterAll(async () => {
  await Promise.all(held.map((server) => new Promise((resolve) => server.close(resolve))));
  rmSync(dataDir, { recursive: true, force: true });
});

let addresses: string[];
beforeAll(async () => {
  addresses = (await lookup('localhost', { all: true })).map((a) => a.address);
});

it('finds a port of localhost taken on any of its addresses, naming the address', async () => {
  const config = loadConfig(
    { DATA_DIR: dataDir, HOST: 'localhost', DATABASE_URL: 'postgresql://u:p@127.0.0.1:1/db', REDIS_URL: 'redis://x' },
    dataDir,
  );
  for (const address of addresses) {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, address, resolve));
    held.push(server);
    const port = (server.address() as { port: number }).port;
    expect(await portProblems({ ...config, metricsPort: 0 }, [{ port, variable: 'PROPERTY_PORT' }])).toEqual([
      `Port ${port} (PROPERTY_PORT) is already in use on localhost (${address}): stop what listens there, or set PROPERTY_PORT to a free port.`,
    ]);
  }
  await Promise.all(held.map((server) => new Promise((resolve) => server.close(resolve))));
  held = [];
});
