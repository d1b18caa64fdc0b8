import { randomBytes } from 'node:crypto';
import type { SmokeOptions, Target } from './args.js';
import { displayUrl } from './args.js';
import { health, read, skipped, writeAndUndo, type CheckContext, type SmokeRow } from './checks.js';

export interface TargetResult {
  service: string;
  baseUrl: string;
  /** The key's display prefix, never the key. */
  key: string;
  rows: SmokeRow[];
}

/** Health first; a service that does not answer at all gets its other checks skipped, not timed out one by one. */
async function runTarget(target: Target, timeoutMs: number): Promise<TargetResult> {
  const context: CheckContext = {
    target,
    timeoutMs,
    runId: `${new Date().toISOString().slice(0, 10)}-${randomBytes(4).toString('hex')}`,
  };
  const rows = [await health(context)];
  const unreachable = rows[0].status === null;
  for (const api of target.service.apis) {
    if (unreachable) {
      const reason = 'not run: the service did not answer';
      rows.push(
        skipped(`${api.name}: ${api.read.name}`, 'GET', api.read.path, reason),
        skipped(`${api.name}: ${api.write.name}`, 'POST', api.write.path, reason),
        skipped(`${api.name}: ${api.write.undo.name} (undo)`, 'POST', api.write.undo.path('{id}'), reason),
      );
      continue;
    }
    rows.push(await read(api, api.read, context), ...(await writeAndUndo(api, api.write, context)));
  }
  return { service: target.service.name, baseUrl: displayUrl(target.baseUrl), key: target.keyDisplay, rows };
}

export async function runSmoke({ targets, timeoutMs }: SmokeOptions): Promise<TargetResult[]> {
  const results: TargetResult[] = [];
  for (const target of targets) results.push(await runTarget(target, timeoutMs));
  return results;
}

export const allPassed = (results: readonly TargetResult[]): boolean =>
  results.every((r) => r.rows.every((row) => row.result !== 'FAIL'));
