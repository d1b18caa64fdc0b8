import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ApiError } from '@platform/http';
import { SandboxError, withWorkspace, type Sandbox } from '@platform/sandbox';
import { RENDER_AUSKUNFT } from './pdf.js';
import type { Auskunft } from './schemas.js';

/**
 * Draws the Auskunft letter in the sandbox, as the other documents are drawn: in a child process
 * with the sandbox's memory limit and render deadline, the account as its group (a few of one
 * account at once), in a bounded line. The client waits for it, so a full sandbox is not waited
 * out: 503 with `Retry-After` at once, as for uploads. A render that fails is a clean 500 that
 * points to the JSON export (the sandbox's reason goes to the log, never to the client).
 */
export async function renderAuskunftInSandbox(sandbox: Sandbox, auskunft: Auskunft, accountId: string) {
  return withWorkspace(async (dir) => {
    const out = join(dir, 'auskunft.pdf');
    try {
      await sandbox.run(RENDER_AUSKUNFT, { data: auskunft, files: {}, out }, { group: accountId });
    } catch (error) {
      throw error instanceof SandboxError ? answerTo(error) : error;
    }
    return readFile(out);
  });
}

function answerTo(error: SandboxError): ApiError {
  if (error.kind === 'busy' || error.kind === 'unavailable' || error.kind === 'closed')
    return new ApiError('service_unavailable', {
      message: 'Too many documents are being generated at the moment; try again shortly.',
      messageDe: 'Gerade werden zu viele Dokumente erzeugt; bitte gleich noch einmal versuchen.',
      headers: { 'retry-after': '5' },
    });
  const failed = new ApiError('internal_error', {
    message: 'The PDF of the Auskunft could not be generated; the same data is available as JSON (GET …/auskunft).',
    messageDe: 'Die Auskunft konnte nicht als PDF erzeugt werden; dieselben Daten liefert GET …/auskunft als JSON.',
  });
  return Object.assign(failed, { cause: error }); // logged by the error handler (type and frames, no message)
}
