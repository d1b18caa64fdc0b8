import type { AuthenticatedRoute } from '@platform/auth';

export interface RouteCoverage {
  /** Registered routes that no entry calls, as `METHOD /pattern`. */
  missing: string[];
  /** Entries that call no registered route, as `METHOD /url`. */
  stale: string[];
}

const segments = (path: string) => path.split('/').slice(1);
const isParam = (segment: string) => segment.startsWith(':');

/** Whether a concrete path fits a pattern: a `:param` segment stands for any one segment. */
function fits(pattern: string[], path: string[]): boolean {
  return (
    pattern.length === path.length &&
    pattern.every((segment, i) => (isParam(segment) ? path[i] !== '' : segment === path[i]))
  );
}

/**
 * Which registered routes the entries call, the way a router would pick them: by method and path
 * (query removed), preferring the pattern with the most static segments where several fit.
 */
export function routeCoverage(
  registered: readonly AuthenticatedRoute[],
  entries: readonly { method: string; url: string }[],
): RouteCoverage {
  const patterns = registered.map((route) => ({ route, segments: segments(route.url) }));
  const covered = new Set<AuthenticatedRoute>();
  const stale: string[] = [];
  for (const entry of entries) {
    const path = segments(entry.url.split('?')[0]);
    const best = patterns
      .filter((p) => p.route.method === entry.method && fits(p.segments, path))
      .sort((a, b) => b.segments.filter((s) => !isParam(s)).length - a.segments.filter((s) => !isParam(s)).length)[0];
    if (best) covered.add(best.route);
    else stale.push(`${entry.method} ${entry.url}`);
  }
  const missing = registered.filter((route) => !covered.has(route)).map((route) => `${route.method} ${route.url}`);
  return { missing, stale };
}
