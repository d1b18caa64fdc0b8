import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const documents = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** Targets of inline links `[text](target)` outside code, relative ones only, with their anchor. */
function relativeTargets(markdown: string): { path: string; anchor: string | undefined }[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((match) => match[1])
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
    .map((target) => {
      const [path, anchor] = decodeURIComponent(target).split('#');
      return { path, anchor };
    });
}

function relativeLinks(markdown: string): string[] {
  return relativeTargets(markdown)
    .filter((t) => t.path !== '')
    .map((t) => t.path);
}

/** The anchors GitHub gives a document's headings (lower case, punctuation dropped, spaces as hyphens). */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const headings = markdown.replace(/```[\s\S]*?```/g, '').matchAll(/^#{1,6}\s+(.+)$/gm);
  for (const [, heading] of headings) {
    const slug = heading
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    let unique = slug;
    for (let n = 1; anchors.has(unique); n++) unique = `${slug}-${n}`;
    anchors.add(unique);
  }
  return anchors;
}

it.each(documents)('every relative link in %s points to a file of the repository', (document) => {
  const markdown = readFileSync(join(root, document), 'utf8');
  const broken = relativeLinks(markdown).filter((target) => {
    const path = resolve(dirname(join(root, document)), target);
    return relative(root, path).startsWith('..') || !existsSync(path);
  });
  expect(broken).toEqual([]);
});

it.each(documents)('every anchor a link of %s names exists in its target', (document) => {
  const markdown = readFileSync(join(root, document), 'utf8');
  const missing = relativeTargets(markdown).filter(({ path, anchor }) => {
    if (!anchor) return false;
    const file = path === '' ? join(root, document) : resolve(dirname(join(root, document)), path);
    return existsSync(file) && file.endsWith('.md') && !anchorsOf(readFileSync(file, 'utf8')).has(anchor);
  });
  expect(missing.map(({ path, anchor }) => `${path}#${anchor}`)).toEqual([]);
});

it.each(documents)('%s sends readers to nothing outside the repository', (document) => {
  const markdown = readFileSync(join(root, document), 'utf8');
  expect(markdown.match(/\.\.\/shared\b|\/work\/|DESIGN\.md|shared\/spec/g) ?? []).toEqual([]);
});

it('finds links and anchors at all (a broken pattern would pass every document)', () => {
  expect(relativeLinks('[a](docs/x.md) [b](https://example.com) `[c](y.md)` [d](#top) [e](z.md#part)')).toEqual([
    'docs/x.md',
    'z.md',
  ]);
  expect([
    ...anchorsOf('# Errors and codes\n## Listings: PDF exposé, channels\n### `webhook.test`\n## Errors and codes'),
  ]).toEqual(['errors-and-codes', 'listings-pdf-exposé-channels', 'webhooktest', 'errors-and-codes-1']);
});
