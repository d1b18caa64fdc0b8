// `pnpm openapi:check [--base <git-ref>]`: the committed OpenAPI documents in openapi/ (as they
// are in the work tree) against the same documents at a git ref; exits 1 on a breaking change
// (docs/versioning.md) unless a commit after the base declares it with a `Breaking-API-Change:`
// line in its message. The default ref is the merge base with origin/main when that ref exists
// (what a pull request changes), otherwise HEAD (what is not committed yet).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { findBreakingChanges, formatBreakingChanges } from '@platform/testkit';

const DIRECTORY = 'openapi';

function git(...args: string[]): string | null {
  try {
    return execFileSync('git', args, {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch {
    return null;
  }
}

// The repository the command runs in (pnpm runs it at the root); its tests run it in a scratch one.
const root = git('rev-parse', '--show-toplevel')?.trim() ?? usage('not inside a git repository');

function defaultBase(): string {
  const mergeBase =
    git('rev-parse', '--verify', '--quiet', 'origin/main') !== null ? git('merge-base', 'HEAD', 'origin/main') : null;
  return mergeBase?.trim() || 'HEAD';
}

function usage(message: string): never {
  console.error(`${message}\nusage: pnpm openapi:check [--base <git-ref>]`);
  process.exit(2);
}

let base: string;
try {
  const { values } = parseArgs({
    args: process.argv.slice(2).filter((arg) => arg !== '--'),
    options: { base: { type: 'string' } },
  });
  base = values.base ?? defaultBase();
} catch (error) {
  usage((error as Error).message);
}
if (git('rev-parse', '--verify', '--quiet', `${base}^{commit}`) === null)
  usage(`${base} is not a commit of this repository`);

const inTree = existsSync(join(root, DIRECTORY))
  ? readdirSync(join(root, DIRECTORY)).filter((name) => name.endsWith('.json'))
  : [];
const atBase = (git('ls-tree', '--name-only', `${base}:${DIRECTORY}`) ?? '')
  .split('\n')
  .filter((name) => name.endsWith('.json'));
let breakingCount = 0;
console.log(`OpenAPI documents in ${DIRECTORY}/ against ${base}:`);
for (const name of [...new Set([...atBase, ...inTree])].sort()) {
  const path = `${DIRECTORY}/${name}`;
  const before = git('show', `${base}:${path}`);
  if (before === null) {
    console.log(`  ${path}: new`);
    continue;
  }
  if (!inTree.includes(name)) {
    breakingCount += 1;
    console.log(`  ${path}: BREAKING: the document was removed`);
    continue;
  }
  const after = readFileSync(join(root, path), 'utf8');
  if (after === before) {
    console.log(`  ${path}: unchanged`);
    continue;
  }
  const changes = findBreakingChanges(JSON.parse(before), JSON.parse(after));
  breakingCount += changes.length;
  console.log(
    changes.length === 0
      ? `  ${path}: changed, additive only`
      : `  ${path}: ${changes.length} BREAKING change(s):\n${formatBreakingChanges(changes)}`,
  );
}
// A breaking change someone meant (a new major version, an API not yet published) is declared in
// the message of a commit after the base: `Breaking-API-Change: <why>`.
const declared = (git('log', '--format=%B', `${base}..HEAD`) ?? '')
  .split('\n')
  .filter((line) => /^Breaking-API-Change:\s*\S/.test(line));
if (breakingCount > 0 && declared.length > 0) {
  console.log(`${breakingCount} breaking change(s), declared:\n${declared.map((line) => `  ${line}`).join('\n')}`);
  process.exit(0);
}
if (breakingCount > 0) {
  console.error(
    `${breakingCount} breaking change(s): make them additive, or publish them as a new major version and declare it (a \`Breaking-API-Change: <why>\` line in the commit message; docs/versioning.md).`,
  );
  process.exit(1);
}
console.log('no breaking change');
