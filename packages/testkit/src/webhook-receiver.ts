import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  raw: Buffer;
}

/** A real HTTP receiver on loopback that keeps every raw body; `respond` decides each answer. */
export async function startReceiver(
  respond: (req: ReceivedRequest, res: ServerResponse) => void = (_r, res) => res.writeHead(200).end('ok'),
) {
  const received: ReceivedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry = { path: req.url ?? '', headers: req.headers, raw: Buffer.concat(chunks) };
      received.push(entry);
      receiver.respond(entry, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const receiver = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    respond,
    /** Resolves with the requests once `count` have arrived at `path` (any path when omitted). */
    async waitFor(count: number, path?: string, timeoutMs = 10_000): Promise<ReceivedRequest[]> {
      return until(async () => {
        const matching = received.filter((r) => path === undefined || r.path === path);
        return matching.length >= count ? matching : undefined;
      }, timeoutMs);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return receiver;
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** Polls until `probe` returns something truthy. */
export async function until<T>(probe: () => Promise<T | undefined | null | false>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
