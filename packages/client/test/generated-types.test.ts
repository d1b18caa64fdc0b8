// The committed types must be what the generator makes of the committed documents.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DOCUMENTS, GENERATED_DIR, generatedText } from '../scripts/generate.js';

describe('the generated types', () => {
  it.each(DOCUMENTS)('of %s are up to date with its document in openapi/', async (name) => {
    const committed = readFileSync(new URL(`${name}.ts`, GENERATED_DIR), 'utf8');
    const fresh = await generatedText(name);
    expect(committed === fresh, `packages/client/src/generated/${name}.ts is stale: run \`pnpm client:generate\``).toBe(
      true,
    );
  });
});
