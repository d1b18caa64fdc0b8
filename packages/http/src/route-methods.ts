/**
 * The methods each registered path answers, so that a known path asked with another method is
 * answered 405 with `Allow` (RFC 9110 §15.5.6) and only an unknown path is 404.
 */
export class RouteMethods {
  private readonly byPattern = new Map<string, { matcher: RegExp; methods: Set<string> }>();

  add(url: string, methods: string | readonly string[]): void {
    let entry = this.byPattern.get(url);
    if (!entry) {
      entry = { matcher: matcherOf(url), methods: new Set() };
      this.byPattern.set(url, entry);
    }
    for (const method of [methods].flat()) entry.methods.add(method.toUpperCase());
  }

  /** The methods of every pattern the path matches, sorted (`GET, HEAD, PATCH`); none for an unknown path. */
  allowed(path: string): string[] {
    const methods = new Set<string>();
    for (const { matcher, methods: own } of this.byPattern.values()) {
      if (!matcher.test(path)) continue;
      for (const method of own) methods.add(method);
    }
    // Fastify answers HEAD for every GET route.
    if (methods.has('GET')) methods.add('HEAD');
    return [...methods].sort();
  }
}

/** `/v1/properties/:propertyId` → `^/v1/properties/[^/]+/?$`; `*` matches the rest of the path. */
function matcherOf(url: string): RegExp {
  const source = url
    .split('/')
    .map((segment) =>
      segment
        .split(/(:[A-Za-z0-9_]+(?:\([^)]*\))?|\*)/)
        .map((part) => {
          if (part === '*') return '.*';
          if (part.startsWith(':')) return '[^/]+';
          return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        })
        .join(''),
    )
    .join('/');
  return new RegExp(`^${source.replace(/\/$/, '')}/?$`);
}
