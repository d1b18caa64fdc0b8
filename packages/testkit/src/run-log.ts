import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';

/**
 * The whole run's logs in one place: every app log line of every test file, and every personal
 * value and API key the tests sent or made. The global teardown reads both and fails the run if
 * any such value, any API key or any e-mail address reached a log.
 */
function runLogDir(): string | undefined {
  try {
    return inject('runLogDir') || undefined;
  } catch {
    return undefined; // outside a test run
  }
}

export function appendRunLog(text: string): void {
  const dir = runLogDir();
  if (dir) appendFileSync(join(dir, `app-${process.pid}.log`), text);
}

/** Remembers a value that must never be logged (a name, an e-mail, a key the test used). */
export function rememberSecret(value: string): void {
  const dir = runLogDir();
  if (dir && value.length >= 5) appendFileSync(join(dir, `secrets-${process.pid}.txt`), `${JSON.stringify(value)}\n`);
}

/** Fields of request bodies that carry personal data (the leads API's). */
const PERSONAL_FIELDS = new Set(['vorname', 'nachname', 'email', 'telefon', 'nachricht']);

/** Remembers the personal values of a request body, at any depth. */
export function rememberPersonalValues(body: unknown): void {
  if (Array.isArray(body)) body.forEach(rememberPersonalValues);
  else if (body && typeof body === 'object') {
    for (const [field, value] of Object.entries(body)) {
      if (PERSONAL_FIELDS.has(field) && typeof value === 'string') rememberSecret(value);
      else rememberPersonalValues(value);
    }
  }
}
