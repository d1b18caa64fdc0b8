import createClient, { type Client } from 'openapi-fetch';
import type { ClientOptions } from './options.js';
import { paginate, type ItemOf, type ListPath, type ListQuery } from './pages.js';

/** An openapi-fetch client of one document that sends the key with every request. */
export function typedClient<Paths extends object>(
  options: ClientOptions | Omit<ClientOptions, 'apiKey'>,
): Client<Paths> {
  const client = createClient<Paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { ...options.headers, ...('apiKey' in options ? { apikey: options.apiKey } : {}) },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  if (options.middleware?.length) client.use(...options.middleware);
  return client;
}

/** `{ properties: { list(query) } }` for a map of names to the document's collection paths. */
export type Lists<Paths, M extends Record<string, ListPath<Paths>>> = {
  [K in keyof M]: { list(query?: ListQuery<Paths, M[K]>): AsyncGenerator<ItemOf<Paths, M[K]>> };
};

export function listsOf<Paths extends object, M extends Record<string, ListPath<Paths>>>(
  client: Client<Paths>,
  paths: M,
): Lists<Paths, M> {
  return Object.fromEntries(
    Object.entries(paths).map(([name, path]) => [
      name,
      { list: (query?: object) => paginate(client, path as ListPath<Paths>, { query: query as never }) },
    ]),
  ) as Lists<Paths, M>;
}
