/**
 * The Node flags a child needs to run `entry`: none for JavaScript (a built bundle); for TypeScript
 * (running from source, in development and tests) tsx's loader, resolved from this package so that
 * the child's working directory does not matter.
 */
export function execArgvFor(entry: string): string[] {
  if (!/\.[cm]?ts$/.test(entry)) return [];
  return ['--import', import.meta.resolve('tsx')];
}
