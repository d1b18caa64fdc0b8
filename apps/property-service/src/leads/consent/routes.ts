import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { Type } from '@sinclair/typebox';
import { AUTH_ERRORS, BODY_ERRORS, EmptyBodySchema, errorResponses } from '@platform/http';
import { ConsentInputSchema, ConsentListSchema, ConsentParamsSchema, ConsentRecordSchema } from './schemas.js';
import type { ConsentService } from './service.js';

const READ = 'leads:read';
const WRITE = 'leads:write';
const tags = ['Leads: Einwilligungen'];
const ProspectParams = Type.Object({ interessentId: Type.String() });

/** Consents of a prospect, with their history: `/interessenten/{id}/einwilligungen`. */
export const consentRoutes: FastifyPluginAsync<{ consents: ConsentService }> = async (plugin, { consents }) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/interessenten/:interessentId/einwilligungen',
    {
      config: { scope: READ },
      schema: {
        tags,
        operationId: 'einwilligungenAuflisten',
        summary: 'Einwilligungen eines Interessenten (Historie)',
        description:
          'Alle Einwilligungen, älteste zuerst, auch widerrufene: die Historie bleibt, solange der Interessent besteht. ' +
          'Nach Löschung oder Anonymisierung ist die Liste leer.',
        params: ProspectParams,
        response: { 200: ConsentListSchema, ...errorResponses([...AUTH_ERRORS, 404], 'de') },
      },
    },
    async (request) => consents.list(request.auth.accountId, request.params.interessentId),
  );

  app.post(
    '/interessenten/:interessentId/einwilligungen',
    {
      config: { scope: WRITE },
      schema: {
        tags,
        operationId: 'einwilligungErteilen',
        summary: 'Einwilligung erfassen',
        description:
          'Eine neue Einwilligung (Zweck, Textversion, Quelle, Zeitpunkt). Mit Double-Opt-in (Standard für `website_formular` und `portal`) ' +
          'gilt sie erst nach `POST …/bestaetigung`. 409, wenn der Interessent anonymisiert ist oder (für `marketing`) widersprochen hat; ' +
          '422, wenn `erteilt_am` mehr als 5 Minuten nach jetzt liegt.',
        params: ProspectParams,
        body: ConsentInputSchema,
        response: { 201: ConsentRecordSchema, ...errorResponses([...AUTH_ERRORS, 404, 409, ...BODY_ERRORS], 'de') },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await consents.give(request.auth.accountId, request.params.interessentId, request.body)),
  );

  app.post(
    '/interessenten/:interessentId/einwilligungen/:einwilligungId/bestaetigung',
    {
      config: { scope: WRITE },
      schema: {
        tags,
        operationId: 'einwilligungBestaetigen',
        summary: 'Einwilligung bestätigen (Double-Opt-in)',
        description:
          'Setzt `bestaetigt_am` auf jetzt. Eine Wiederholung ändert nichts; eine widerrufene Einwilligung kann nicht bestätigt werden (409).',
        params: ConsentParamsSchema,
        body: EmptyBodySchema,
        response: { 200: ConsentRecordSchema, ...errorResponses([...AUTH_ERRORS, 404, 409, ...BODY_ERRORS], 'de') },
      },
    },
    async (request) =>
      consents.confirm(request.auth.accountId, request.params.interessentId, request.params.einwilligungId),
  );

  app.post(
    '/interessenten/:interessentId/einwilligungen/:einwilligungId/widerruf',
    {
      config: { scope: WRITE },
      schema: {
        tags,
        operationId: 'einwilligungWiderrufen',
        summary: 'Einwilligung widerrufen (Art. 7 Abs. 3 DSGVO)',
        description:
          'Setzt `widerrufen_am` auf jetzt und löst `consent.withdrawn` aus. Der Widerruf einer Einwilligung in `marketing` widerruft die ' +
          'Einwilligung in Werbung: alle noch nicht widerrufenen Marketing-Einwilligungen des Interessenten enden mit ihr (auch unbestätigte), ' +
          'je mit einem `consent.withdrawn`. Eine Wiederholung ist unschädlich: sie liefert den ersten Widerruf und löst kein Ereignis aus.',
        params: ConsentParamsSchema,
        body: EmptyBodySchema,
        response: { 200: ConsentRecordSchema, ...errorResponses([...AUTH_ERRORS, 404, 409, ...BODY_ERRORS], 'de') },
      },
    },
    async (request) =>
      consents.withdraw(request.auth.accountId, request.params.interessentId, request.params.einwilligungId),
  );
};
