import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// Read by the global teardown (no vitest import here: it runs in the main process).
const API_KEY = /\b[a-z]{2,8}_(?:test|live)_[0-9A-Za-z]{38}\b/g;
const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[A-Za-z]{2,}\b/g;

/** What of the remembered values, keys and e-mail addresses the run's app logs contain. */
export function auditRunLogs(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const files = readdirSync(dir);
  const logs = files
    .filter((f) => f.startsWith('app-'))
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('');
  const secrets = new Set(
    files
      .filter((f) => f.startsWith('secrets-'))
      .flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean))
      .map((line) => JSON.parse(line) as string),
  );
  const found = [...secrets]
    .filter((value) => logs.includes(value))
    .map((value) => `a value the tests sent as personal data or key: ${JSON.stringify(value.slice(0, 3))}…`);
  for (const match of logs.match(API_KEY) ?? []) found.push(`an API key: ${match.slice(0, 12)}…`);
  for (const match of logs.match(EMAIL) ?? []) found.push(`an e-mail address: …@${match.split('@')[1]}`);
  return [...new Set(found)];
}
