import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

export interface ScriptRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A TypeScript script of the repository run with tsx from its root, as `pnpm <script>` would: exit code and output once it ends. */
export function runScript(script: string, args: string[], env?: NodeJS.ProcessEnv): Promise<ScriptRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(join(ROOT, 'node_modules/.bin/tsx'), [script, ...args], {
      cwd: ROOT,
      env: env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}
