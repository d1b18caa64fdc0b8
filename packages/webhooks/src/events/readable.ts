import type { EventCatalogue } from '../catalogue.js';

/**
 * The rule of the catalogue (`EventDefinition.scope`): a key may see an event type only when it
 * may read its data. Webhook subscriptions and the events API apply the same rule.
 */
export function readableEventTypes(catalogue: EventCatalogue, scopes: ReadonlySet<string>): string[] {
  return catalogue.filter((event) => scopes.has(event.scope)).map((event) => event.type);
}

/** The scopes the key lacks to read events of `types` (each once, in catalogue order). */
export function missingScopesFor(
  catalogue: EventCatalogue,
  scopes: ReadonlySet<string>,
  types: readonly string[],
): string[] {
  const wanted = new Set(types);
  return [...new Set(catalogue.filter((e) => wanted.has(e.type) && !scopes.has(e.scope)).map((e) => e.scope))];
}
