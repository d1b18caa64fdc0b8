import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { AUTH_ERRORS, BODY_ERRORS, errorResponses } from '@platform/http';
import { TrefferEinstellungenSchema } from './schemas.js';
import type { OutreachSettingsService } from './service.js';

const tags = ['Leads: Abgleich'];
const path = '/einstellungen/treffer';

export const outreachRoutes: FastifyPluginAsync<{ settings: OutreachSettingsService }> = async (
  plugin,
  { settings },
) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    path,
    {
      config: { scope: 'leads:read' },
      schema: {
        tags,
        operationId: 'trefferEinstellungenLesen',
        summary: 'Einstellungen der Treffer-Ankündigung',
        description:
          'Ab welcher Bewertung und wie oft am Tag ein Interessent über eine neu vermarktete oder günstiger gewordene Immobilie benachrichtigt wird (Ereignis `prospect.matched`).',
        response: { 200: TrefferEinstellungenSchema, ...errorResponses([...AUTH_ERRORS], 'de') },
      },
    },
    async (request) => settings.get(request.auth.accountId),
  );

  app.put(
    path,
    {
      config: { scope: 'leads:write' },
      schema: {
        tags,
        operationId: 'trefferEinstellungenSetzen',
        summary: 'Einstellungen der Treffer-Ankündigung setzen',
        description:
          'Ersetzt beide Werte. Gilt für Läufe, die danach beginnen; ein laufender Lauf behält die Werte, mit denen er begonnen hat.',
        body: TrefferEinstellungenSchema,
        response: { 200: TrefferEinstellungenSchema, ...errorResponses([...AUTH_ERRORS, ...BODY_ERRORS], 'de') },
      },
    },
    async (request) => settings.put(request.auth.accountId, request.body),
  );
};
