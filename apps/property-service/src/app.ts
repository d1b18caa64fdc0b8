import type { FastifyInstance } from 'fastify';
import { createServiceApp, type ServiceAppDeps } from '@platform/auth';
import { webhookRoutes, type WebhookInfrastructure } from '@platform/webhooks';
import { PROPERTY_EVENTS } from './events.js';
import { propertyRoutes } from './properties/routes.js';
import { createPropertyService } from './properties/service.js';

export interface PropertyAppDeps extends ServiceAppDeps {
  webhooks: WebhookInfrastructure;
}

/** The property-marketing service: property API at `/v1` (the leads API will live at `/leads/v1`). */
export function buildPropertyApp(deps: PropertyAppDeps): Promise<FastifyInstance> {
  return createServiceApp(deps, {
    service: 'property',
    dialectFor: (url) => (url.startsWith('/leads/') ? 'de' : 'en'),
    document: {
      prefix: '/v1',
      title: 'Property Marketing Service: Property API',
      description: 'Property records for sale or rent. Authenticate with an API key in the `apikey` header.',
    },
    routes: async (v1, { db, cursors, now }) => {
      await v1.register(propertyRoutes, { properties: createPropertyService({ db, cursors, now }) });
      await v1.register(webhookRoutes, { ...deps.webhooks, db, cursors, now, catalogue: PROPERTY_EVENTS, service: 'property' });
    },
  });
}
