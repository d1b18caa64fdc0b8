import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

// Which top-level folder (resource) of an app's src imports which at run time. Only `import type`
// and `export type … from` are left out: with `verbatimModuleSyntax` an `import { type A }` still
// loads its module (`import {} from …`), so it is an edge.

const IMPORT =
  /^\s*(import|export)\s+(type\s+)?(\{[^}]*\}|\*(?:\s+as\s+[\w$]+)?|[\w$]+(?:\s*,\s*(?:\{[^}]*\}|\*\s+as\s+[\w$]+))?)?\s*(?:from\s+)?['"](\.[^'"]+)['"]/gm;
const DYNAMIC = /\bimport\(\s*['"`](\.[^'"`]+)['"`]\s*\)/g;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : name.endsWith('.ts') ? [path] : [];
  });
}

/** `listings` for src/listings/service.ts, `app` for src/app.ts. */
const unitOf = (src: string, file: string) =>
  relative(src, file)
    .split(sep)[0]
    .replace(/\.(ts|js)$/, '');

/** The run-time imports between the folders (and top-level files) of `src`: folder → the others it imports. */
export function folderImports(src: string): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of files(src)) {
    const from = unitOf(src, file);
    const text = readFileSync(file, 'utf8');
    const targets = [
      ...[...text.matchAll(IMPORT)].filter((m) => !m[2]).map((m) => m[4]),
      ...[...text.matchAll(DYNAMIC)].map((m) => m[1]),
    ];
    for (const target of targets) {
      const to = unitOf(src, resolve(dirname(file), target));
      if (to !== from && !to.startsWith('..')) graph.set(from, (graph.get(from) ?? new Set()).add(to));
    }
  }
  return graph;
}

/** The import circles: strongly connected groups of more than one folder (Tarjan), each sorted. */
export function importCircles(graph: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1) circles.push(group.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return circles;
}
