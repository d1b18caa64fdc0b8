import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** A document of docs/, by name: `docsPath('errors.md')`. */
export function docsPath(name: string): string {
  return fileURLToPath(new URL(`../../docs/${name}`, import.meta.url));
}

const begin = (name: string) => `<!-- BEGIN GENERATED ${name} -->`;
const end = (name: string) => `<!-- END GENERATED ${name} -->`;

/** The text between a section's markers, or null when the markers are missing. */
export function readSection(markdown: string, name: string): string | null {
  const from = markdown.indexOf(begin(name));
  const to = markdown.indexOf(end(name));
  if (from < 0 || to < from) return null;
  return markdown.slice(from + begin(name).length, to).trim();
}

/** The document with one section's text replaced; the markers must already be there. */
export function replaceSection(markdown: string, name: string, content: string): string {
  const from = markdown.indexOf(begin(name));
  const to = markdown.indexOf(end(name));
  if (from < 0 || to < from) throw new Error(`No section "${name}": add the lines ${begin(name)} and ${end(name)}.`);
  return `${markdown.slice(0, from + begin(name).length)}\n${content.trim()}\n${markdown.slice(to)}`;
}

/**
 * A generated section as it is committed and as it should be. With `UPDATE_DOCS=1` the file is
 * rewritten first, so the caller's comparison passes and the diff shows what changed.
 */
export function generatedSection(
  file: string,
  name: string,
  content: string,
): { committed: string | null; expected: string } {
  const path = docsPath(file);
  if (process.env.UPDATE_DOCS === '1') writeFileSync(path, replaceSection(readFileSync(path, 'utf8'), name, content));
  return { committed: readSection(readFileSync(path, 'utf8'), name), expected: content.trim() };
}

/** A markdown table cell: pipes escaped, no line breaks. */
export function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}
