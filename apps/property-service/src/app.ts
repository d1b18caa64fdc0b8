import type { FastifyInstance } from 'fastify';
import { createServiceApp, type ServiceAppDeps } from '@platform/service';
import { propertyDescriptor } from './descriptor.js';
import { inquiryRoutes } from './leads/inquiry-routes.js';
import { matchingRoutes } from './leads/matching-routes.js';
import { createMatchingService } from './leads/matching.js';
import { createInquiryService } from './leads/inquiry-service.js';
import { prospectRoutes } from './leads/prospect-routes.js';
import { createProspectService } from './leads/prospect-service.js';
import { propertyRoutes } from './properties/routes.js';
import { createPropertyService } from './properties/service.js';

export interface PropertyAppDeps extends ServiceAppDeps {
  /** Retention of prospects in days after their last activity (default 180). */
  leadsRetentionDays?: number;
}

/** The property-marketing service: property API at `/v1`, leads API (German) at `/leads/v1`, each with its OpenAPI document. */
export function buildPropertyApp(deps: PropertyAppDeps): Promise<FastifyInstance> {
  return createServiceApp(deps, {
    service: propertyDescriptor,
    dialectFor: (url) => (url.startsWith('/leads/') ? 'de' : 'en'),
    document: {
      prefix: '/v1',
      title: 'Property Marketing Service: Property API',
      description: 'Property records for sale or rent. Authenticate with an API key in the `apikey` header.',
    },
    routes: async (v1, { db, cursors, now }) => {
      await v1.register(propertyRoutes, { properties: createPropertyService({ db, cursors, now }) });
    },
    extraApis: [
      {
        document: {
          prefix: '/leads/v1',
          title: 'Property Marketing Service: Leads API',
          description:
            'Interessenten mit Einwilligung und Suchprofil, Aufbewahrung, Anonymisierung und Löschung; Anfragen mit nachvollziehbarer Bewertung; ' +
            'automatisches Matching. Authentifizierung mit einem API-Key im Header `apikey` (dieselben Keys wie die Property API).',
        },
        routes: async (leads, { db, cursors, scoredCursors, now }) => {
          const retentionDays = deps.leadsRetentionDays ?? 180;
          await leads.register(prospectRoutes, { prospects: createProspectService({ db, cursors, now, retentionDays }) });
          await leads.register(inquiryRoutes, { inquiries: createInquiryService({ db, cursors: scoredCursors, now, retentionDays }) });
          await leads.register(matchingRoutes, { matching: createMatchingService({ db, cursors }) });
        },
      },
    ],
  });
}
