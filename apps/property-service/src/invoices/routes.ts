import { createHash } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { AUTH_ERRORS, BODY_ERRORS, PageSchema, errorResponses } from '@platform/http';
import type { BlobStorage } from '@platform/storage';
import { downloadResponses, etagMatches, sendDownload } from '@platform/uploads';
import {
  CreditNoteBodySchema,
  InvoiceListQuerySchema,
  InvoiceParamsSchema,
  InvoiceSchema,
  MarkPaidBodySchema,
} from './schemas.js';
import type { InvoiceService } from './service.js';

const READ = 'commissions:read';
const tags = ['Invoices'];
const HOW =
  'Invoices are issued with their settlement when a property is marked sold or rented with `invoice_recipients`: one per paying party, ' +
  "numbered gaplessly per account and year (`2026-000001`), with the §14 UStG particulars (issuer from the account's billing profile); " +
  'each is an XRechnung 3.0 (`.../xml`) and a ZUGFeRD hybrid PDF (`.../pdf`). An issued invoice is never changed: it is corrected by a ' +
  'credit note (`type` `credit_note`, series `KR-2026-000001`).';

export const invoiceRoutes: FastifyPluginAsync<{ invoices: InvoiceService; storage: BlobStorage }> = async (
  plugin,
  { invoices, storage },
) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/invoices',
    {
      config: { scope: READ },
      schema: {
        tags,
        operationId: 'listInvoices',
        summary: 'List invoices',
        description: `Commission invoices of the account, newest first; filters \`settlement_id\` and \`state\`. ${HOW}`,
        querystring: InvoiceListQuerySchema,
        response: { 200: PageSchema(InvoiceSchema), ...errorResponses([...AUTH_ERRORS, 422]) },
      },
    },
    async (request) => invoices.list(request.auth.accountId, request.query),
  );

  app.get(
    '/invoices/:invoiceId',
    {
      config: { scope: READ },
      schema: {
        tags,
        operationId: 'getInvoice',
        summary: 'Get an invoice',
        description: `One commission invoice. ${HOW}`,
        params: InvoiceParamsSchema,
        response: { 200: InvoiceSchema, ...errorResponses([...AUTH_ERRORS, 404]) },
      },
    },
    async (request) => invoices.get(request.auth.accountId, request.params.invoiceId),
  );

  app.post(
    '/invoices/:invoiceId/mark-paid',
    {
      config: { scope: 'properties:write' },
      schema: {
        tags,
        operationId: 'markInvoicePaid',
        summary: 'Mark an invoice paid',
        description:
          '`issued` → `paid` on `paid_on` (default today; not in the future, not before the issue date). An invoice that §656d BGB holds on this one ' +
          '(`due_after_invoice_id`) falls due its payment terms after that day. An invoice already paid: 409 `conflict`.',
        params: InvoiceParamsSchema,
        body: MarkPaidBodySchema,
        response: { 200: InvoiceSchema, ...errorResponses([...AUTH_ERRORS, 404, 409, ...BODY_ERRORS]) },
      },
    },
    async (request) => invoices.markPaid(request.auth.accountId, request.params.invoiceId, request.body ?? undefined),
  );

  app.post(
    '/invoices/:invoiceId/credit-note',
    {
      config: { scope: 'commissions:write' },
      schema: {
        tags,
        operationId: 'creditInvoice',
        summary: 'Correct an invoice by a credit note',
        description:
          'Corrects the invoice in full by a credit note (type 381 with BT-25 naming the invoice, its own gapless series `KR-2026-000001`, ' +
          'the same recipient and amounts, `reason` printed), issued today; its PDF is rendered in the background. The invoice itself is never ' +
          'changed; its `credit_note_id` and the settlement line name the credit note. Emits `invoice.credited`. An invoice corrected already, ' +
          'or a credit note: 409 `conflict`. A mistake is corrected this way, and so is a sale or letting that fell through.',
        params: InvoiceParamsSchema,
        body: CreditNoteBodySchema,
        response: { 201: InvoiceSchema, ...errorResponses([...AUTH_ERRORS, 404, 409, ...BODY_ERRORS]) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await invoices.creditNote(request.auth.accountId, request.params.invoiceId, request.body)),
  );

  app.get(
    '/invoices/:invoiceId/pdf',
    {
      config: { scope: READ },
      schema: {
        tags,
        operationId: 'downloadInvoicePdf',
        summary: "Download an invoice's PDF",
        description:
          "The invoice's PDF, streamed, with `ETag`; 404 until it is rendered (`document_status` `completed`).",
        params: InvoiceParamsSchema,
        response: {
          ...downloadResponses('The invoice (`application/pdf`).', ['application/pdf']),
          ...errorResponses([...AUTH_ERRORS, 404]),
        },
      },
    },
    async (request, reply) => {
      const { sha256, number } = await invoices.pdf(request.auth.accountId, request.params.invoiceId);
      return sendDownload(request, reply, storage, {
        sha256,
        contentType: 'application/pdf',
        filename: `rechnung-${number}.pdf`,
        disposition: 'inline',
      });
    },
  );

  app.get(
    '/invoices/:invoiceId/xml',
    {
      config: { scope: READ },
      schema: {
        tags,
        operationId: 'downloadInvoiceXml',
        summary: "Download an invoice's XML",
        description:
          'The invoice as UN/CEFACT Cross Industry Invoice XML (D16B, EN 16931 profile: the syntax of XRechnung CII and ZUGFeRD/Factur-X), ' +
          "checked in the project's tests against the official schema and the EN 16931 business rules. With `ETag`.",
        params: InvoiceParamsSchema,
        response: {
          ...downloadResponses('The invoice (`application/xml`).', ['application/xml']),
          ...errorResponses([...AUTH_ERRORS, 404]),
        },
      },
    },
    async (request, reply) => {
      const { xml, number } = await invoices.xml(request.auth.accountId, request.params.invoiceId);
      const etag = `"${createHash('sha256').update(xml).digest('hex')}"`;
      reply.header('ETag', etag).header('Cache-Control', 'private, no-cache');
      if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send(null);
      return reply
        .type('application/xml; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="rechnung-${number}.xml"`)
        .send(xml);
    },
  );
};
