// The receivers of docs/webhooks.md in PHP and Python (docs/snippets/), started as their readers
// would start them: `php -S` with the script, `python3` with the file; the secrets in WEBHOOK_SECRETS.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { until } from '@platform/testkit';

export const SNIPPETS = fileURLToPath(new URL('../../../docs/snippets/', import.meta.url));

/**
 * Whether a snippet's interpreter is there. Missing on a developer's machine: its tests are skipped
 * and `note` says why; missing in CI (CI=true): they run and fail, as .ci/run installs it.
 */
export function interpreter(command: string, install: string): { available: boolean; note: string } {
  const available = !spawnSync(command, ['--version'], { stdio: 'ignore' }).error;
  if (available || process.env.CI === 'true') return { available: true, note: '' };
  return { available: false, note: ` — SKIPPED: ${command} is not installed here (${install}; .ci/run installs it)` };
}

const launchers = {
  PHP: {
    command: 'php',
    install: 'Debian: php-cli',
    launch: (port: number, env: NodeJS.ProcessEnv) =>
      spawn('php', ['-S', `127.0.0.1:${port}`, join(SNIPPETS, 'verify-webhook.php')], { env, stdio: 'ignore' }),
  },
  Python: {
    command: 'python3',
    install: 'Debian: python3',
    launch: (port: number, env: NodeJS.ProcessEnv) =>
      spawn('python3', [join(SNIPPETS, 'verify-webhook.py')], { env: { ...env, PORT: String(port) }, stdio: 'ignore' }),
  },
};

export type SnippetLanguage = keyof typeof launchers;
export const RECEIVER_LANGUAGES = Object.keys(launchers) as SnippetLanguage[];

/** Whether the language's interpreter is there (see `interpreter`). */
export function receiverInterpreter(language: SnippetLanguage) {
  return interpreter(launchers[language].command, launchers[language].install);
}

/** Starts the language's receiver on `port` holding `secrets`; resolves once it answers HTTP. */
export async function startSnippetReceiver(language: SnippetLanguage, port: number, secrets: readonly string[]) {
  const child: ChildProcess = launchers[language].launch(port, { ...process.env, WEBHOOK_SECRETS: secrets.join(',') });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let running = true;
  void exited.then(() => (running = false));
  const url = `http://127.0.0.1:${port}/hooks`;
  await until(async () => {
    if (!running) throw new Error(`the ${language} receiver ended at start (port ${port} taken?)`);
    return fetch(url, { method: 'POST' }).then(
      () => true,
      () => false,
    );
  }, 15_000);
  /** Ends the receiver; resolves once its process has ended and the port is free. */
  const stop = () => {
    child.kill();
    return exited;
  };
  return { url, stop };
}
