import { parseArgs, redact, UsageError, USAGE, type SmokeOptions } from './args.js';
import { json, table } from './report.js';
import { allPassed, runSmoke } from './run.js';

interface Output {
  write(text: string): unknown;
}

/** Exit code: 0 all passed, 1 a check failed, 2 a usage error. Never prints a key, only its display prefix. */
export async function smoke(argv: readonly string[], out: Output, err: Output): Promise<number> {
  let options: SmokeOptions | null;
  try {
    options = parseArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    err.write(`${redact(error.message)}\n${USAGE}\n`);
    return 2;
  }
  if (options === null) {
    out.write(`${USAGE}\n`);
    return 0;
  }
  for (const warning of options.warnings) err.write(`${warning}\n`);
  const results = await runSmoke(options);
  out.write(redact((options.json ? json : table)(results)));
  return allPassed(results) ? 0 : 1;
}
