import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { folderImports, importCircles } from '@platform/testkit';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SOURCES = ['apps/property-service/src', 'apps/agent-platform/src', 'apps/cli/src'];

describe('resource folders import each other in one direction only', () => {
  for (const src of SOURCES)
    it(`${src}: no import circle between its folders`, () => {
      // A circle means neither side can be understood (or loaded) without the other: pass the
      // function in where the app wires its services instead (see app.ts).
      expect(importCircles(folderImports(join(ROOT, src)))).toEqual([]);
    });
});

describe('the check itself', () => {
  const dir = mkdtempSync(join(tmpdir(), 'folder-imports-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };

  it('finds a circle through a barrel, a re-export or a dynamic import, and ignores `import type` only', () => {
    write('a/index.ts', "export { b } from '../b/index.js';\n");
    write('b/index.ts', "import {\n  c,\n  type C,\n} from '../c/service.js';\nexport const b = c;\n");
    write('c/service.ts', "export const c = () => import('../a/index.js');\nexport type C = string;\n");
    write('d/index.ts', "import type { b } from '../b/index.js';\nexport type { C } from '../c/service.js';\n");
    // `import { type E }` still loads e (verbatimModuleSyntax keeps `import {} from`), and double quotes count.
    write('e/index.ts', 'import { type D } from "../d/index.js";\nexport type E = 1;\n');
    write('app.ts', "import { b } from './b/index.js';\n");
    const graph = folderImports(dir);
    expect(graph.get('d')).toBeUndefined();
    expect(graph.get('e')).toEqual(new Set(['d']));
    expect(graph.get('app')).toEqual(new Set(['b']));
    expect(importCircles(graph)).toEqual([['a', 'b', 'c']]);
  });
});
