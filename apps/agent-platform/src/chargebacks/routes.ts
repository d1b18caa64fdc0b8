import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { AUTH_ERRORS, PageSchema, errorResponses } from '@platform/http';
import type { BlobStorage } from '@platform/storage';
import { downloadResponses, sendDownload } from '@platform/uploads';
import {
  ChargebackListQuerySchema,
  ChargebackSettlementSchema,
  ChargebackSettlementSummarySchema,
  InternalInvoiceParamsSchema,
  InternalInvoiceSchema,
  LINE_METHOD,
  SettlementParamsSchema,
} from './schemas.js';
import type { ChargebackService } from './service.js';

const READ = 'chargebacks:read';
const tags = ['Chargebacks'];
const MADE_BY =
  'Made once per closed month by the monthly chargeback run (1st of the month, 02:00 in the account’s time zone).';

export const chargebackRoutes: FastifyPluginAsync<{ chargebacks: ChargebackService; storage: BlobStorage }> = async (
  plugin,
  { chargebacks, storage },
) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/chargebacks/settlements',
    {
      config: { scope: READ },
      schema: {
        tags,
        operationId: 'listChargebackSettlements',
        summary: 'List chargeback settlements',
        description: `Settlements of the account, one per consuming team and period, newest first; filters \`period\` and \`team\`. ${MADE_BY}`,
        querystring: ChargebackListQuerySchema,
        response: { 200: PageSchema(ChargebackSettlementSummarySchema), ...errorResponses([...AUTH_ERRORS, 422]) },
      },
    },
    async (request) => chargebacks.listSettlements(request.auth.accountId, request.query),
  );

  app.get(
    '/chargebacks/settlements/:settlementId',
    {
      config: { scope: READ },
      schema: {
        tags,
        operationId: 'getChargebackSettlement',
        summary: 'Get a chargeback settlement',
        description: `A settlement with its lines: per agent, rate valid at the time of use and month of use (late usage of earlier months marked); ${LINE_METHOD}.`,
        params: SettlementParamsSchema,
        response: { 200: ChargebackSettlementSchema, ...errorResponses([...AUTH_ERRORS, 404]) },
      },
    },
    async (request) => chargebacks.getSettlement(request.auth.accountId, request.params.settlementId),
  );

  app.get(
    '/internal-invoices',
    {
      config: { scope: READ },
      schema: {
        tags,
        operationId: 'listInternalInvoices',
        summary: 'List internal invoices',
        description: `Internal invoices of the account (one per settlement), newest first; filters \`period\` and \`team\`. ${MADE_BY}`,
        querystring: ChargebackListQuerySchema,
        response: { 200: PageSchema(InternalInvoiceSchema), ...errorResponses([...AUTH_ERRORS, 422]) },
      },
    },
    async (request) => chargebacks.listInvoices(request.auth.accountId, request.query),
  );

  app.get(
    '/internal-invoices/:invoiceId',
    {
      config: { scope: READ },
      schema: {
        tags,
        operationId: 'getInternalInvoice',
        summary: 'Get an internal invoice',
        params: InternalInvoiceParamsSchema,
        response: { 200: InternalInvoiceSchema, ...errorResponses([...AUTH_ERRORS, 404]) },
      },
    },
    async (request) => chargebacks.getInvoice(request.auth.accountId, request.params.invoiceId),
  );

  app.get(
    '/internal-invoices/:invoiceId/pdf',
    {
      config: { scope: READ },
      schema: {
        tags,
        operationId: 'downloadInternalInvoicePdf',
        summary: "Download an internal invoice's PDF",
        description:
          'The invoice’s PDF, streamed, with `ETag`; 404 until the invoice is `completed` (and for a `failed` one).',
        params: InternalInvoiceParamsSchema,
        response: {
          ...downloadResponses('The PDF (`application/pdf`).', ['application/pdf']),
          ...errorResponses([...AUTH_ERRORS, 404]),
        },
      },
    },
    async (request, reply) => {
      const { sha256, number } = await chargebacks.pdf(request.auth.accountId, request.params.invoiceId);
      return sendDownload(request, reply, storage, {
        sha256,
        contentType: 'application/pdf',
        filename: `internal-invoice-${number}.pdf`,
        disposition: 'inline',
      });
    },
  );
};
