import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { findBreakingChanges, formatBreakingChanges, type BreakingChange } from './openapi-breaking.js';

export interface OpenApiSnapshot {
  /** The document as the server sends it, pretty-printed as it is committed (`prettyDocument`). */
  actual: string;
  /** The committed copy after this call (rewritten under UPDATE_OPENAPI=1), or null when there is none. */
  committed: string | null;
  /** Breaking changes from the committed copy (as it was before this call) to `actual`. */
  breaking: BreakingChange[];
  /** What a failing test says when `actual` and `committed` differ. */
  difference: string;
}

/**
 * How a document is committed: 2-space JSON in the server's key order and a final newline, so a
 * change is a readable diff of the lines it touches (the server itself sends it compact).
 */
export function prettyDocument(compact: string): string {
  return `${JSON.stringify(JSON.parse(compact), null, 2)}\n`;
}

/**
 * The OpenAPI document as the server sends it, pretty-printed (`prettyDocument`), byte for byte
 * against the committed copy in openapi/. `UPDATE_OPENAPI=1 pnpm test:only <test file>` rewrites the copy after an intended
 * change, but refuses a breaking change (docs/versioning.md) unless ALLOW_BREAKING_API_CHANGE=1.
 * Otherwise any difference fails, and the failure says whether it is breaking.
 */
export async function openApiSnapshot(app: FastifyInstance, url: string, file: string): Promise<OpenApiSnapshot> {
  const res = await app.inject({ method: 'GET', url });
  if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}`);
  const actual = prettyDocument(res.body);
  const name = relative(process.cwd(), file);
  const before = existsSync(file) ? readFileSync(file, 'utf8') : null;
  const breaking =
    before !== null && before !== actual ? findBreakingChanges(JSON.parse(before), JSON.parse(actual)) : [];
  if (process.env.UPDATE_OPENAPI !== '1' || before === actual) {
    return { actual, committed: before, breaking, difference: describeDifference(name, before, actual, breaking) };
  }
  if (breaking.length > 0 && process.env.ALLOW_BREAKING_API_CHANGE !== '1') {
    throw new Error(
      `refusing to overwrite ${name}: the generated document has ${breaking.length} breaking change(s):\n${formatBreakingChanges(breaking)}\n` +
        'Make the change additive, or set ALLOW_BREAKING_API_CHANGE=1 for a change that is meant to break (see docs/versioning.md).',
    );
  }
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, actual);
  return { actual, committed: actual, breaking, difference: '' };
}

function describeDifference(name: string, before: string | null, actual: string, breaking: BreakingChange[]): string {
  if (before === null) return `${name} is missing; write it with UPDATE_OPENAPI=1`;
  if (before === actual) return '';
  const changed = changedEntries(JSON.parse(before), JSON.parse(actual));
  const where =
    changed.length > 0 ? `\nChanged: ${changed.slice(0, 20).join(', ')}${changed.length > 20 ? ', …' : ''}` : '';
  if (breaking.length === 0) {
    return `${name} differs from the generated document; the change is additive (not breaking).${where}\nReview it and commit it: UPDATE_OPENAPI=1 pnpm test:only <this test file>`;
  }
  return (
    `${name} differs from the generated document, with ${breaking.length} BREAKING change(s):\n${formatBreakingChanges(breaking)}${where}\n` +
    'Make the change additive, or (for a change meant to break, see docs/versioning.md) ALLOW_BREAKING_API_CHANGE=1 UPDATE_OPENAPI=1 pnpm test:only <this test file>'
  );
}

/** Paths and component schemas whose text differs, so a reviewer knows where to look. */
function changedEntries(
  before: Record<string, Record<string, unknown>>,
  after: Record<string, Record<string, unknown>>,
): string[] {
  const differs = (scope: string, old: Record<string, unknown> | undefined, now: Record<string, unknown> | undefined) =>
    [...new Set([...Object.keys(old ?? {}), ...Object.keys(now ?? {})])]
      .filter((key) => JSON.stringify(old?.[key]) !== JSON.stringify(now?.[key]))
      .map((key) => `${scope}${key}`);
  const schemas = (document: Record<string, Record<string, unknown>>) =>
    (document.components?.schemas ?? undefined) as Record<string, unknown> | undefined;
  return [
    ...differs('', before.paths, after.paths),
    ...differs('components.schemas.', schemas(before), schemas(after)),
  ];
}
