import type { Client } from 'openapi-fetch';
import { unwrap, type CallResult } from './errors.js';

type JsonOf<R> = R extends { content: { 'application/json': infer J } } ? J : never;
type ListBody<Op> = Op extends { responses: { 200: infer R } } ? JsonOf<R> : never;
type ItemsOf<B> = B extends { data: (infer I)[] } ? I : B extends { daten: (infer I)[] } ? I : never;

/** The paths of a document whose GET answers a page (`data`/`page`, or `daten`/`seite`). */
export type ListPath<Paths> = {
  [P in keyof Paths]: Paths[P] extends { get: infer Op } ? (ItemsOf<ListBody<Op>> extends never ? never : P) : never;
}[keyof Paths] &
  string;

/** The item type of a list path. */
export type ItemOf<Paths, P extends keyof Paths> = Paths[P] extends { get: infer Op } ? ItemsOf<ListBody<Op>> : never;

type ParametersOf<Paths, P extends keyof Paths> = Paths[P] extends { get: { parameters: infer Params } }
  ? Params
  : never;
/** The query of a list path without its cursor (the iteration sets it). */
export type ListQuery<Paths, P extends keyof Paths> = Omit<
  NonNullable<ParametersOf<Paths, P> extends { query?: infer Q } ? Q : never>,
  'cursor'
>;
/** The path parameters of a list path (`{ propertyId }` for a property's media). */
export type ListPathParams<Paths, P extends keyof Paths> = ParametersOf<Paths, P> extends { path: infer A } ? A : never;

interface AnyPage {
  data?: unknown[];
  page?: { next_cursor: string | null };
  daten?: unknown[];
  seite?: { naechster_cursor: string | null };
}

/**
 * Every item of a list, page after page, following the cursor until the last page:
 * `for await (const p of paginate(client, '/v1/properties', { query: { status: 'active' } }))`.
 * An error answer throws (`ApiError` / `LeadsApiError`) where it happens.
 */
export async function* paginate<Paths extends object, P extends ListPath<Paths>>(
  client: Client<Paths>,
  path: P,
  params: { query?: ListQuery<Paths, P>; path?: ListPathParams<Paths, P> } = {},
): AsyncGenerator<ItemOf<Paths, P>> {
  let cursor: string | null | undefined;
  const get = client.GET as unknown as (path: string, init: object) => Promise<CallResult<AnyPage>>;
  do {
    const query = { ...(params.query ?? {}), ...(cursor ? { cursor } : {}) };
    const page = await unwrap(get(path, { params: { path: params.path, query } }));
    for (const item of page.data ?? page.daten ?? []) yield item as ItemOf<Paths, P>;
    cursor = page.page?.next_cursor ?? page.seite?.naechster_cursor ?? null;
  } while (cursor);
}
