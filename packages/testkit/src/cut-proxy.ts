import { createServer, connect, type Socket } from 'node:net';

export interface CutProxy {
  host: string;
  port: number;
  /** Client→server bytes forwarded so far (all connections). */
  forwarded(): number;
  stop(): Promise<void>;
}

/**
 * A TCP proxy on a free loopback port in front of `target`: it forwards both ways and, once it
 * has forwarded `cutAfterBytes` bytes from the client to the server (counted over all its
 * connections), destroys both sockets of that connection and every later one, as a network
 * that drops a connection in the middle of an upload.
 */
export async function startCutProxy(
  target: { host: string; port: number },
  options: { cutAfterBytes: number },
): Promise<CutProxy> {
  let forwarded = 0;
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  };
  const server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    track(client);
    track(upstream);
    const cut = () => {
      client.destroy();
      upstream.destroy();
    };
    if (forwarded >= options.cutAfterBytes) return cut();
    client.on('data', (chunk: Buffer) => {
      const room = options.cutAfterBytes - forwarded;
      if (room <= 0) return cut();
      if (chunk.length >= room) {
        forwarded += room;
        upstream.write(chunk.subarray(0, room), cut);
        client.pause();
        return;
      }
      forwarded += chunk.length;
      if (!upstream.write(chunk)) {
        client.pause();
        upstream.once('drain', () => client.resume());
      }
    });
    upstream.pipe(client);
    client.once('end', () => upstream.end());
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as { port: number };
  let stopped: Promise<void> | undefined;
  return {
    host: '127.0.0.1',
    port,
    forwarded: () => forwarded,
    stop: () =>
      (stopped ??= new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      })),
  };
}
