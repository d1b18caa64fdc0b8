// The public surface of the prospects resource (Interessenten): other resources and the app use only this.
export { prospectRoutes } from './routes.js';
export {
  createProspectService,
  prospectForInquiry,
  retentionUntil,
  type ProspectService,
  type ProspectServiceDeps,
} from './service.js';
export { prospectNotFound, prospectRepository, prospectsByIds } from './repository.js';
export { normaliseLocation, toColumns as prospectColumns, toProspect, type ProspectRow } from './mapping.js';
export { ProspectInputSchema, ProspectParamsSchema, ProspectSchema, type ProspectInput } from './schemas.js';
