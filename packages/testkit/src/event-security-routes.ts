import type { TestApp } from './app-harness.js';
import type { SecurityRoute } from './security-suite.js';

/**
 * The events routes under `path` (`/v1/events`, `/leads/v1/ereignisse`) for the suite: the list,
 * and the newest event of the tenant against the newest of the other account. Both accounts must
 * have caused an event of the API already.
 */
export async function eventSecurityRoutes(
  ctx: Pick<TestApp, 'send' | 'tenant' | 'other'>,
  path: string,
  scope?: string,
): Promise<SecurityRoute[]> {
  const newest = async (key: string) => {
    const body = (await ctx.send('GET', `${path}?limit=1`, undefined, key)).json() as {
      data?: { id: string }[];
      daten?: { id: string }[];
    };
    const id = (body.data ?? body.daten)?.[0]?.id;
    if (!id) throw new Error(`${path}: the account has no event yet`);
    return id;
  };
  const [mine, theirs] = [await newest(ctx.tenant.key), await newest(ctx.other.key)];
  return [
    { method: 'GET', url: path, scope },
    {
      method: 'GET',
      url: `${path}/${mine}`,
      otherTenantUrl: `${path}/${theirs}`,
      missingUrl: `${path}/evt_missing`,
      scope,
    },
  ];
}
