// The Auskunft (GDPR Art. 15/20): everything held about a prospect as JSON or a PDF letter, and the log of exports.
export { auskunftRoutes } from './routes.js';
export { createAuskunftService, type AuskunftService } from './service.js';
