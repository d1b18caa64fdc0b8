// Inquiries that portals hand back as OpenImmo-Feedback (a document or the portal's raw mail): the app uses only this.
export { portalInquiryRoutes } from './routes.js';
export { createPortalInquiryService, type PortalInquiryService, type PortalInquiryServiceDeps } from './service.js';
export { PortalImportSchema } from './schemas.js';
