export { formatInvoiceNumber, nextInvoiceNumber } from './numbering-sql.js';
