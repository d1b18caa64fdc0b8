import { createConnection } from 'node:net';
import { Redis } from 'ioredis';

/** Whether something accepts connections on 127.0.0.1:port. */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** The answer of the Redis on 127.0.0.1:port to PING (`PONG`), or why there was none. */
export async function pingLocalRedis(port: number, password?: string): Promise<string> {
  const client = new Redis({
    host: '127.0.0.1',
    port,
    password,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    // A server that accepts and never answers must not hold the start forever.
    connectTimeout: 2_000,
    commandTimeout: 2_000,
    enableReadyCheck: false,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    return await client.ping();
  } catch (error) {
    return (error as Error).message;
  } finally {
    client.disconnect();
  }
}
