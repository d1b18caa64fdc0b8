import { Type } from '@sinclair/typebox';
import { createServiceApp, defineService } from '@platform/service';
import { TEST_SERVICES, addKey, startTestApp, type TestApp } from '@platform/testkit';
import { recordEvent } from '../src/outbox.js';

/** A service with two kinds of events: things (`things:read`) and stuff (`stuff:read`, the German API's domain). */
export const eventsService = defineService({
  ...TEST_SERVICES[0],
  scopes: ['things:read', 'things:write', 'stuff:read', 'keys:manage'],
  webhookHeaderPrefix: 'Test',
  events: [
    {
      type: 'thing.created',
      description: 'A thing was created.',
      scope: 'things:read',
      data: Type.Object({ thing_id: Type.String() }),
    },
    {
      type: 'thing.archived',
      description: 'A thing was archived.',
      scope: 'things:read',
      data: Type.Object({ thing_id: Type.String() }),
    },
    {
      type: 'stuff.found',
      description: 'Stuff was found.',
      scope: 'stuff:read',
      data: Type.Object({ stuff_id: Type.String() }),
    },
  ],
  jobs: [],
  port: { variable: 'TEST_PORT', default: 0, description: 'unused' },
  settings: [],
  loggedQueryParameters: [],
});

/** The service's app: `/v1` (English) and a German `/leads/v1` whose one operation reads stuff. */
export function startEventsApp(): Promise<TestApp> {
  return startTestApp(eventsService, (deps) =>
    createServiceApp(deps, {
      service: eventsService,
      dialectFor: (url) => (url.startsWith('/leads/') ? 'de' : 'en'),
      document: { prefix: '/v1', title: 'Test API', description: 'Test API' },
      routes: async () => {},
      extraApis: [
        {
          document: { prefix: '/leads/v1', title: 'Leads', description: 'Leads' },
          routes: async (api) => {
            api.get('/dinge', { config: { scope: 'stuff:read' } }, async () => ({ daten: [] }));
          },
        },
      ],
    }),
  );
}

/** Writes an event into the outbox as a service change would, at `at`. */
export function record(ctx: TestApp, type: string, at: Date, accountId = ctx.tenant.accountId) {
  return recordEvent(ctx.db.prisma, { accountId, service: eventsService.id, type, data: { id_of: type }, now: at });
}

/** A key of the tenant with only these scopes. */
export async function keyWith(ctx: TestApp, scopes: string[]): Promise<string> {
  return (await addKey(ctx.db.prisma, ctx.tenant, { service: eventsService, scopes })).key;
}
