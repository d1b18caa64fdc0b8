import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A private temporary directory for one piece of work: its input files go in, the sandbox's task
 * writes its output files there, the caller reads them; removed afterwards whatever happened.
 */
export async function withWorkspace<R>(use: (dir: string) => Promise<R>): Promise<R> {
  const dir = await mkdtemp(join(tmpdir(), 'sandbox-'));
  try {
    return await use(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
