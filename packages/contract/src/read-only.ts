import type { Operation } from './operations.js';

export interface ReadOnlyOptions {
  baseUrl: string;
  apiKey: string;
  /** A recording fetch (ContractRecorder.fetch): the answers are checked against the documents there. */
  fetch: (input: string, init?: RequestInit) => Promise<Response>;
}

/** What one read did: the operation, the concrete path, the status (or why it was skipped). */
export interface ReadResult {
  operationId: string;
  path: string;
  status?: number;
  skipped?: string;
}

const ITEMS_FIELDS = ['data', 'daten'];

/**
 * The read-only part of the contract: every GET of the documents, with ids taken from the
 * collection above each path parameter (`/v1/properties/{propertyId}/media/{mediaId}`: the first
 * property of `/v1/properties`, then its first medium). Nothing is written, so it may run against
 * any deployment with a sandbox key. An operation whose collection is empty is skipped, saying so.
 */
export async function exerciseReads(operations: readonly Operation[], options: ReadOnlyOptions): Promise<ReadResult[]> {
  const firstIds = new Map<string, string | null>();
  const get = (path: string) => options.fetch(`${options.baseUrl}${path}`, { headers: { apikey: options.apiKey } });
  const firstIdOf = async (collection: string): Promise<string | null> => {
    if (!firstIds.has(collection)) {
      const response = await get(`${collection}?limit=1`);
      const body = response.ok
        ? ((await response.json()) as Record<string, unknown>)
        : (await response.arrayBuffer(), {});
      const items = ITEMS_FIELDS.map((field) => body[field]).find(Array.isArray) as { id?: unknown }[] | undefined;
      firstIds.set(collection, typeof items?.[0]?.id === 'string' ? items[0].id : null);
    }
    return firstIds.get(collection)!;
  };
  const results: ReadResult[] = [];
  for (const operation of operations.filter((o) => o.method === 'get')) {
    const needed = (operation.definition.parameters ?? [])
      .filter((p) => p.in === 'query' && p.required)
      .map((p) => p.name);
    if (needed.length > 0) {
      results.push({ operationId: operation.operationId, path: operation.path, skipped: `needs ${needed.join(', ')}` });
      continue;
    }
    const listed = (template: string) => operations.some((o) => o.method === 'get' && o.path === template);
    const path = await resolvePath(operation, listed, firstIdOf);
    if (typeof path !== 'string') {
      results.push({ operationId: operation.operationId, path: operation.path, skipped: path.skipped });
      continue;
    }
    const response = await get(path);
    await response.arrayBuffer();
    results.push({ operationId: operation.operationId, path, status: response.status });
  }
  return results;
}

/** Fills the path's parameters from left to right, each from the collection path just before it. */
async function resolvePath(
  operation: Operation,
  listed: (template: string) => boolean,
  firstIdOf: (collection: string) => Promise<string | null>,
): Promise<string | { skipped: string }> {
  let resolved = '';
  let template = '';
  for (const segment of operation.path.split('/').slice(1)) {
    if (segment.startsWith('{')) {
      if (!listed(template)) return { skipped: `no collection ${template} to take ${segment} from` };
      const id = await firstIdOf(resolved);
      if (id === null) return { skipped: `no record in ${resolved} to read` };
      resolved += `/${encodeURIComponent(id)}`;
    } else resolved += `/${segment}`;
    template += `/${segment}`;
  }
  return resolved;
}
