import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { portAnswers, startChildServer, type ChildServer } from './child-server.js';
import { freePort } from './ports.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** A redis-server of its own (loopback, no persistence), so that no other test file's worker takes its jobs. */
export async function startRedisServer(): Promise<{ url: string; server: ChildServer }> {
  const port = await freePort();
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  const server = await startChildServer('redis-server', [...args, '--maxmemory-policy', 'noeviction'], {
    ready: () => portAnswers(port),
    timeoutMs: 10_000,
  });
  return { url: `redis://127.0.0.1:${port}`, server };
}

/** The S3 settings of the services (`STORAGE_DRIVER=s3`, read by the runtime's configuration). */
export type S3Variables = Record<
  'STORAGE_DRIVER' | 'S3_ENDPOINT' | 'S3_REGION' | 'S3_BUCKET' | 'S3_ACCESS_KEY_ID' | 'S3_SECRET_ACCESS_KEY',
  string
>;

/**
 * s3rver, the S3 test server of the storage package's tests, with files under `dir` and one bucket
 * created at start; resolves to the services' variables for it.
 */
export async function startS3Server(dir: string): Promise<{ env: S3Variables; server: ChildServer }> {
  const port = await freePort();
  const bucket = 'platform-files';
  const server = await startChildServer(
    join(ROOT, 'packages/storage/node_modules/.bin/s3rver'),
    ['-d', dir, '-a', '127.0.0.1', '-p', String(port), '--silent', '--configure-bucket', bucket],
    { ready: () => portAnswers(port), timeoutMs: 20_000 },
  );
  return {
    server,
    env: {
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_REGION: 'us-east-1',
      S3_BUCKET: bucket,
      // s3rver's fixed test credentials
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    },
  };
}
