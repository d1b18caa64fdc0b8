import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { AUTH_ERRORS, PageSchema, SeiteSchema, errorResponses, toSeite } from '@platform/http';
import { ereignisSchemas, eventSchemas } from './schemas.js';
import { createEventService, type EventBody, type EventCaller, type EventServiceDeps } from './service.js';

const SCOPE_RULE =
  'Required scope: the scope of each event type shown (see `GET /v1/event-types`): a key sees only the events whose data it may read; asking for another type answers 403 `scope_missing`.';
const SCOPE_REGEL =
  'Erforderlicher Scope: der Scope des jeweiligen Ereignistyps (siehe `GET /v1/event-types` der Property API): ein Schlüssel sieht nur Ereignisse, deren Daten er lesen darf; ein anderer Typ im Filter ergibt 403 `scope_fehlt`.';
const RETENTION = 'Events are kept for 30 days; older ones are neither listed nor found (404).';
const AUFBEWAHRUNG = 'Ereignisse werden 30 Tage aufbewahrt; ältere werden weder aufgelistet noch gefunden (404).';

const caller = (request: { auth: EventCaller }) => request.auth;

/**
 * When every event type an API shows needs the same scope (the leads API's: `leads:read`), its
 * routes declare that scope like any other route; otherwise the scope follows from each type.
 */
function routeScope(deps: EventServiceDeps, rule: string): { config: { scope?: string }; rule: string } {
  const scopes = new Set(deps.catalogue.map((e) => e.scope));
  const [scope] = scopes;
  return scopes.size === 1 ? { config: { scope }, rule: '' } : { config: {}, rule: ` ${rule}` };
}

/** `GET /events` and `GET /events/{eventId}`: what webhooks delivered (or would have), to reconcile by event id. */
export const eventRoutes: FastifyPluginAsync<EventServiceDeps> = async (plugin, deps) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const events = createEventService(deps, { createdBefore: 'created_before' });
  const { EventSchema, EventListQuerySchema, EventParamsSchema } = eventSchemas(deps.catalogue);
  const tags = ['Events'];
  const { config, rule } = routeScope(deps, SCOPE_RULE);

  app.get(
    '/events',
    {
      config,
      schema: {
        tags,
        operationId: 'listEvents',
        summary: 'List events',
        description: `The account's events, newest first, each exactly the body its webhook deliveries carry. ${RETENTION}${rule}`,
        querystring: EventListQuerySchema,
        response: { 200: PageSchema(EventSchema), ...errorResponses([...AUTH_ERRORS, 422]) },
      },
    },
    async (request) => {
      const { type, created_after, created_before, ...page } = request.query;
      return events.list(caller(request), {
        ...page,
        types: type,
        createdAfter: created_after,
        createdBefore: created_before,
      });
    },
  );

  app.get(
    '/events/:eventId',
    {
      config,
      schema: {
        tags,
        operationId: 'getEvent',
        summary: 'Get an event',
        description: `${RETENTION}${rule}`,
        params: EventParamsSchema,
        response: { 200: EventSchema, ...errorResponses([...AUTH_ERRORS, 404]) },
      },
    },
    async (request) => events.get(caller(request), request.params.eventId),
  );
};

const toEreignis = (event: EventBody) => ({
  id: event.id,
  typ: event.type,
  angelegt_am: event.created_at,
  daten: event.data,
});

/** Die Ereignisse in der Leads-API (`/ereignisse`): dieselben Ereignisse mit deutschen Feldnamen. */
export const ereignisRoutes: FastifyPluginAsync<EventServiceDeps> = async (plugin, deps) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const events = createEventService(deps, { createdBefore: 'angelegt_vor' });
  const { EreignisSchema, EreignisListQuerySchema, EreignisParamsSchema } = ereignisSchemas(deps.catalogue);
  const tags = ['Leads: Ereignisse'];
  const { config, rule } = routeScope(deps, SCOPE_REGEL);

  app.get(
    '/ereignisse',
    {
      config,
      schema: {
        tags,
        operationId: 'ereignisseAuflisten',
        summary: 'Ereignisse auflisten',
        description: `Die Ereignisse des Kontos, neueste zuerst; \`id\` ist die Ereignis-ID der Webhook-Zustellung. ${AUFBEWAHRUNG}${rule}`,
        querystring: EreignisListQuerySchema,
        response: { 200: SeiteSchema(EreignisSchema), ...errorResponses([...AUTH_ERRORS, 422], 'de') },
      },
    },
    async (request) => {
      const { typ, angelegt_ab, angelegt_vor, ...page } = request.query;
      const list = await events.list(caller(request), {
        ...page,
        types: typ,
        createdAfter: angelegt_ab,
        createdBefore: angelegt_vor,
      });
      return toSeite({ data: list.data.map(toEreignis), page: list.page });
    },
  );

  app.get(
    '/ereignisse/:ereignisId',
    {
      config,
      schema: {
        tags,
        operationId: 'ereignisAbrufen',
        summary: 'Ereignis abrufen',
        description: `${AUFBEWAHRUNG}${rule}`,
        params: EreignisParamsSchema,
        response: { 200: EreignisSchema, ...errorResponses([...AUTH_ERRORS, 404], 'de') },
      },
    },
    async (request) => toEreignis(await events.get(caller(request), request.params.ereignisId)),
  );
};
