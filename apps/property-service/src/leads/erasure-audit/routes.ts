import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { AUTH_ERRORS, SeiteSchema, errorResponses } from '@platform/http';
import { ErasureRecordQuerySchema, ErasureRecordSchema } from './schemas.js';
import type { ErasureAuditService } from './service.js';

/**
 * The existing read scope: the log holds ids, times and counts only, less than `leads:read` already
 * shows of the prospects, and a DPO's tool that reads the leads reads it without a new key.
 */
const READ = 'leads:read';

export const erasureAuditRoutes: FastifyPluginAsync<{ erasureAudit: ErasureAuditService }> = async (
  plugin,
  { erasureAudit },
) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/loeschprotokoll',
    {
      config: { scope: READ },
      schema: {
        tags: ['Leads: Interessenten'],
        operationId: 'loeschprotokollAuflisten',
        summary: 'Löschprotokoll auflisten',
        description:
          'Jede Löschung (auf Verlangen: welcher API-Key oder das CLI) und jede nächtliche Anonymisierung (Aufbewahrungsfrist ' +
          'abgelaufen) des Kontos, mit der Zahl der betroffenen Zeilen je Tabelle, ohne personenbezogene Daten. Neueste zuerst; ' +
          'Filter `von` (einschließlich) und `bis` (ausschließlich); `limit` 1..100 (Standard 25), `cursor`.',
        querystring: ErasureRecordQuerySchema,
        response: { 200: SeiteSchema(ErasureRecordSchema), ...errorResponses([...AUTH_ERRORS, 422], 'de') },
      },
    },
    async (request) => erasureAudit.list(request.auth.accountId, request.query),
  );
};
