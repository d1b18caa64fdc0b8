import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { AUTH_ERRORS, PageSchema, errorResponses } from '@platform/http';
import {
  ComparablesQuerySchema,
  ValuationParamsSchema,
  ValuationQuerySchema,
  ValuationSchema,
  ValuedComparableSchema,
} from './schemas.js';
import type { ValuationService } from './service.js';

const READ = 'valuations:read';
const tags = ['Valuations'];
const SOURCES =
  "Comparables are the account's own sales and lettings (properties `sold` or `rented` with a transaction price, not this one) " +
  "and the market transactions imported into the account (`pnpm cli comparables import`); other accounts' data is never used.";

export const valuationRoutes: FastifyPluginAsync<{ valuations: ValuationService }> = async (plugin, { valuations }) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/properties/:propertyId/valuation',
    {
      config: { scope: READ },
      schema: {
        tags,
        operationId: 'getPropertyValuation',
        summary: 'Value a property',
        description:
          'Values the property by the comparison approach (`comparison/1`) as of today: same type and marketing, same postal code ' +
          '(widened to its first 3, then 2 digits when fewer than 5 are usable, saying so), living area within ±30 %, year built within ±25 years, ' +
          'the last 36 months; price per m² adjusted for area (±2 % per 10 %, capped at ±5 %) and age (∓5 % per 10 years, capped at ±10 %), ' +
          'outliers beyond 1.5 × IQR dropped; estimate = median × living area, range = interquartile. ' +
          'Lists the comparables inside the selection (usable, or dropped as outliers) and counts the candidates outside it in `excluded`, by reason. ' +
          `Fewer than 5 usable comparables: \`estimate_eur: null\` and the reason. ${SOURCES}`,
        params: ValuationParamsSchema,
        querystring: ValuationQuerySchema,
        response: { 200: ValuationSchema, ...errorResponses([...AUTH_ERRORS, 404, 422]) },
      },
    },
    async (request) => valuations.valuation(request.auth.accountId, request.params.propertyId, request.query),
  );

  app.get(
    '/properties/:propertyId/comparables',
    {
      config: { scope: READ },
      schema: {
        tags,
        operationId: 'listPropertyComparables',
        summary: "List a property's comparables",
        description: `The comparables of the property's valuation (the same selection: those meeting every criterion, usable or dropped as outliers), newest first, then by id; each with its raw price, its adjustments and whether it was dropped. ${SOURCES}`,
        params: ValuationParamsSchema,
        querystring: ComparablesQuerySchema,
        response: { 200: PageSchema(ValuedComparableSchema), ...errorResponses([...AUTH_ERRORS, 404, 422]) },
      },
    },
    async (request) => valuations.comparables(request.auth.accountId, request.params.propertyId, request.query),
  );
};
