// The public surface of the inquiries resource (Anfragen): other resources and the app use only this.
export { inquiryRoutes } from './routes.js';
export { createInquiryService, type InquiryService, type InquiryServiceDeps } from './service.js';
export { inquiryRepository } from './repository.js';
export { inquiriesToInvite } from './invitation-sql.js';
export { inquiriesOfProspect, InquirySchema, type Inquiry } from './prospect-inquiries-sql.js';
