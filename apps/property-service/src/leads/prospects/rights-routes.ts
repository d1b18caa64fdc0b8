import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { AUTH_ERRORS, BODY_ERRORS, EmptyBodySchema, errorResponses } from '@platform/http';
import { ProspectParamsSchema, ProspectSchema } from './schemas.js';
import type { RightsService } from './rights.js';

const WRITE = 'leads:write';
const tags = ['Leads: Interessenten'];
const response = { 200: ProspectSchema, ...errorResponses([...AUTH_ERRORS, 404, 409, ...BODY_ERRORS], 'de') };

/** Restriction (Art. 18) and objection (Art. 21) of a prospect. */
export const rightsRoutes: FastifyPluginAsync<{ rights: RightsService }> = async (plugin, { rights }) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/interessenten/:interessentId/einschraenkung',
    {
      config: { scope: WRITE },
      schema: {
        tags,
        operationId: 'interessentEinschraenken',
        summary: 'Verarbeitung einschränken (Art. 18 DSGVO)',
        description:
          'Der Interessent bleibt gespeichert, wird aber nicht mehr abgeglichen, angesprochen oder exportiert (`eingeschraenkt_seit`); ' +
          'neue Besichtigungstermine und neue Zeiten bestehender lehnt die Termin-API ab (409), bestehende Termine bleiben. ' +
          'Löst `prospect.restricted` aus; eine Wiederholung ändert nichts. 409 für einen anonymisierten Interessenten.',
        params: ProspectParamsSchema,
        body: EmptyBodySchema,
        response,
      },
    },
    async (request) => rights.restrict(request.auth.accountId, request.params.interessentId),
  );

  app.delete(
    '/interessenten/:interessentId/einschraenkung',
    {
      config: { scope: WRITE },
      schema: {
        tags,
        operationId: 'einschraenkungAufheben',
        summary: 'Einschränkung aufheben',
        description:
          'Hebt die Einschränkung auf; löst `prospect.restriction_lifted` aus. Ohne Einschränkung ändert sich nichts. ' +
          'Ein Widerspruch bleibt davon unberührt.',
        params: ProspectParamsSchema,
        response: { 200: ProspectSchema, ...errorResponses([...AUTH_ERRORS, 404, 409], 'de') },
      },
    },
    async (request) => rights.lift(request.auth.accountId, request.params.interessentId),
  );

  app.post(
    '/interessenten/:interessentId/widerspruch',
    {
      config: { scope: WRITE },
      schema: {
        tags,
        operationId: 'werbungWidersprechen',
        summary: 'Widerspruch gegen Werbung (Art. 21 DSGVO)',
        description:
          'Widerruft alle Einwilligungen in Marketing (je `consent.withdrawn`), setzt `widerspruch_seit` und löst `prospect.objected` aus. ' +
          'Danach wird keine neue Einwilligung in Marketing angenommen (409), auch nicht über `einwilligung` des Interessenten; ' +
          '`kontaktaufnahme` bleibt möglich. Eine Wiederholung ändert nichts.',
        params: ProspectParamsSchema,
        body: EmptyBodySchema,
        response,
      },
    },
    async (request) => rights.object(request.auth.accountId, request.params.interessentId),
  );
};
