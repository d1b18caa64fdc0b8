import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { AUTH_ERRORS, BODY_ERRORS, EmptyBodySchema, SeiteSchema, errorResponses } from '@platform/http';
import { InquiryInputSchema, InquiryListQuerySchema, InquiryParamsSchema, InquirySchema } from './schemas.js';
import type { InquiryService } from './service.js';

const tags = ['Leads: Anfragen'];

export const inquiryRoutes: FastifyPluginAsync<{ inquiries: InquiryService }> = async (plugin, { inquiries }) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/anfragen',
    {
      config: { scope: 'leads:write' },
      schema: {
        tags,
        operationId: 'anfrageAnlegen',
        summary: 'Anfrage anlegen',
        description:
          'Nimmt eine Anfrage zu einer Immobilie an (bestehender Interessent per `interessent_id` oder neuer inline mit Einwilligung) und bewertet sie sofort: ' +
          'erst Ausschlusskriterien, dann gewichtete Kriterien mit Toleranzen; jede Punktzahl mit Grund. Löst `inquiry.received` und `inquiry.scored` aus.',
        body: InquiryInputSchema,
        response: { 201: InquirySchema, ...errorResponses([...AUTH_ERRORS, 404, 409, ...BODY_ERRORS], 'de') },
      },
    },
    async (request, reply) => reply.status(201).send(await inquiries.create(request.auth.accountId, request.body)),
  );

  app.get(
    '/anfragen',
    {
      config: { scope: 'leads:read' },
      schema: {
        tags,
        operationId: 'anfragenAuflisten',
        summary: 'Anfragen auflisten',
        description: 'Beste Bewertung zuerst; Filter `immobilie_id`.',
        querystring: InquiryListQuerySchema,
        response: { 200: SeiteSchema(InquirySchema), ...errorResponses([...AUTH_ERRORS, 422], 'de') },
      },
    },
    async (request) => inquiries.list(request.auth.accountId, request.query),
  );

  app.get(
    '/anfragen/:anfrageId',
    {
      config: { scope: 'leads:read' },
      schema: {
        tags,
        operationId: 'anfrageAbrufen',
        summary: 'Anfrage abrufen',
        params: InquiryParamsSchema,
        response: { 200: InquirySchema, ...errorResponses([...AUTH_ERRORS, 404], 'de') },
      },
    },
    async (request) => inquiries.get(request.auth.accountId, request.params.anfrageId),
  );

  app.post(
    '/anfragen/:anfrageId/bewertung',
    {
      config: { scope: 'leads:write' },
      schema: {
        tags,
        operationId: 'anfrageNeuBewerten',
        summary: 'Anfrage neu bewerten',
        description:
          'Bewertet die Anfrage neu, mit der Immobilie und dem Suchprofil, wie sie jetzt sind (z. B. nach einer Preisänderung); ersetzt die gespeicherte Bewertung ' +
          'und setzt `bewertet_am`. Löst `inquiry.scored` aus.',
        params: InquiryParamsSchema,
        body: EmptyBodySchema,
        response: { 200: InquirySchema, ...errorResponses([...AUTH_ERRORS, 404, ...BODY_ERRORS], 'de') },
      },
    },
    async (request) => inquiries.rescore(request.auth.accountId, request.params.anfrageId),
  );
};
