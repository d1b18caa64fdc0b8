import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import { AUTH_ERRORS, Named, SeitenQuerySchema, SeiteSchema, errorResponses } from '@platform/http';
import { ProspectParamsSchema, ProspectSchema } from '../prospects/index.js';
import { InquiryScoreSchema } from './schemas.js';
import type { MatchingService } from './service.js';

const tags = ['Leads: Abgleich'];

export const matchingRoutes: FastifyPluginAsync<{ matching: MatchingService }> = async (plugin, { matching }) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/interessenten/:interessentId/treffer',
    {
      config: { scope: 'leads:read' },
      schema: {
        tags,
        operationId: 'trefferFuerInteressent',
        summary: 'Passende Immobilien eines Interessenten',
        description:
          'Immobilien in der Vermarktung, die zum aktiven Suchprofil passen, beste Bewertung zuerst, mit derselben Erklärung wie bei Anfragen. ' +
          'Leer, solange der Interessent keine gültige Einwilligung in Marketing hat, eingeschränkt ist oder widersprochen hat.',
        params: ProspectParamsSchema,
        querystring: SeitenQuerySchema,
        response: {
          200: SeiteSchema(
            Named(
              'ImmobilienTreffer',
              Type.Object({
                immobilie_id: Type.String(),
                titel: Type.String(),
                status: Type.String(),
                bewertung: InquiryScoreSchema,
              }),
            ),
          ),
          ...errorResponses([...AUTH_ERRORS, 404, 422], 'de'),
        },
      },
    },
    async (request) =>
      matching.propertiesForProspect(request.auth.accountId, request.params.interessentId, request.query),
  );

  app.get(
    '/immobilien/:immobilieId/interessenten',
    {
      config: { scope: 'leads:read' },
      schema: {
        tags,
        operationId: 'interessentenFuerImmobilie',
        summary: 'Passende Interessenten einer Immobilie',
        description:
          'Interessenten mit aktivem Suchprofil, die zur Immobilie passen, beste Bewertung zuerst. Ausschlusskriterien werden in SQL geprüft (indiziert). ' +
          'Nur Interessenten mit gültiger Einwilligung in Marketing (erteilt, bei Double-Opt-in bestätigt, nicht widerrufen), ohne Einschränkung und ohne Widerspruch.',
        params: Type.Object({ immobilieId: Type.String() }),
        querystring: SeitenQuerySchema,
        response: {
          200: SeiteSchema(
            Named('InteressentenTreffer', Type.Object({ interessent: ProspectSchema, bewertung: InquiryScoreSchema })),
          ),
          ...errorResponses([...AUTH_ERRORS, 404, 422], 'de'),
        },
      },
    },
    async (request) => matching.prospectsForProperty(request.auth.accountId, request.params.immobilieId, request.query),
  );
};
