// `@platform/billing/sandbox`: the invoice renderer (pdfkit) as the sandbox's child processes run it.
import { implementRender } from '@platform/documents/pdf';
import type { TaskHandler } from '@platform/sandbox';
import { RENDER_INVOICE, renderInvoicePdf } from './invoice-pdf.js';

export const BILLING_SANDBOX_TASKS: readonly TaskHandler[] = [implementRender(RENDER_INVOICE, renderInvoicePdf)];
