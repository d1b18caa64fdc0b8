import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { FastifyInstance } from 'fastify';

/**
 * The OpenAPI document as the server sends it, byte for byte, against the committed copy.
 * `UPDATE_OPENAPI=1 pnpm test:only <test file>` rewrites the copy after an intended change;
 * otherwise any difference fails (a refactoring must leave the documents as they were).
 */
export async function openApiSnapshot(app: FastifyInstance, url: string, file: string): Promise<{ actual: string; committed: string | null }> {
  const res = await app.inject({ method: 'GET', url });
  if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}`);
  const actual = res.body;
  if (process.env.UPDATE_OPENAPI === '1') {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, actual);
  }
  return { actual, committed: existsSync(file) ? readFileSync(file, 'utf8') : null };
}
