// The README's quick start names every port a start uses and how to run a second instance beside
// the first; its Building section lists every bundle scripts/build.mjs makes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The text of a section: from its heading to the next heading of the same or a higher level. */
function section(heading: string): string {
  const start = README.indexOf(`\n${heading}\n`);
  expect(start, `README.md has no "${heading}"`).toBeGreaterThan(-1);
  const level = heading.split(' ')[0]!;
  const rest = README.slice(start + heading.length + 2);
  const next = rest.search(new RegExp(`^#{1,${level.length}} `, 'm'));
  return next === -1 ? rest : rest.slice(0, next);
}

/** Every `*_PORT` variable of the configuration with its default (the generated table of docs/operations.md). */
function portVariables(): Map<string, string> {
  const operations = readFileSync(join(ROOT, 'docs/operations.md'), 'utf8');
  return new Map([...operations.matchAll(/^\| `([A-Z_]+_PORT)` \| (\d+) \|/gm)].map((m) => [m[1]!, m[2]!]));
}

describe('README.md', () => {
  it('quick start: names every port variable and starts a second instance with each of them and DATA_DIR changed', () => {
    const quickStart = section('## Quick start');
    const ports = portVariables();
    expect([...ports.keys()]).toEqual(
      expect.arrayContaining([
        'PROPERTY_PORT',
        'AGENT_PLATFORM_PORT',
        'METRICS_PORT',
        'EMBEDDED_PG_PORT',
        'REDIS_PORT',
      ]),
    );
    const prose = quickStart.replace(/\s+/g, ' ');
    for (const [variable, fallback] of ports) expect(prose).toContain(`\`${variable}\` (${fallback}`);
    const second = quickStart.split('\n').find((line) => / pnpm start$/.test(line) && line.includes('DATA_DIR='));
    expect(second, 'a `DATA_DIR=… …_PORT=… pnpm start` line').toBeDefined();
    const set = new Map([...second!.matchAll(/([A-Z_]+)=(\S+)/g)].map((m) => [m[1]!, m[2]!]));
    expect(set.get('DATA_DIR')).not.toBe('.data');
    const defaults = new Set(ports.values());
    for (const variable of ports.keys()) {
      expect(set.has(variable), `${variable} in the second instance's line`).toBe(true);
      expect(defaults.has(set.get(variable)!), `${variable}=${set.get(variable)} is another port's default`).toBe(
        false,
      );
    }
    const chosen = [...ports.keys()].map((variable) => set.get(variable));
    expect(new Set(chosen).size).toBe(chosen.length);
  });

  it('Building: lists every dist/ bundle of scripts/build.mjs', async () => {
    const { ENTRIES } = (await import(pathToFileURL(join(ROOT, 'scripts/build.mjs')).href)) as {
      ENTRIES: Record<string, string>;
    };
    const building = section('### Building');
    const listed = [...building.matchAll(/`dist\/([a-z-]+)\.js`/g)].map((m) => m[1]);
    expect(new Set(listed)).toEqual(new Set(Object.keys(ENTRIES)));
  });
});
