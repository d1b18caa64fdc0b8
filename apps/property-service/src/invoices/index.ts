// Commission invoices: issued with a settlement (issue.ts), read, marked paid, as PDF and CII XML.
export { invoiceRoutes } from './routes.js';
export { createInvoiceService, type InvoiceService } from './service.js';
export { issueInvoices, type InvoiceRecipients } from './issue.js';
export { invoiceJobs } from './generation.js';
export { invoiceRepository } from './repository.js';
export { InvoiceRecipientSchema, SaleRecipientsSchema, LettingRecipientsSchema } from './schemas.js';
