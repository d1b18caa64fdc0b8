export { formatInvoiceNumber, nextInvoiceNumber } from './numbering-sql.js';
export { invoiceCii } from './cii.js';
export type * from './invoice-data.js';
