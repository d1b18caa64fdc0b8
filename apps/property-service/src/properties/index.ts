// The public surface of the properties resource: other resources and the app use only this.
export { propertyRoutes } from './routes.js';
export { createPropertyService, type PropertyService, type PropertyServiceDeps, type StatusChange } from './service.js';
export type { OfferImproved } from './offer-change.js';
export { PROPERTY_TYPES, PropertySchema, type Property } from './schemas.js';
export { toProperty } from './mapping.js';
export { propertyRepository } from './repository.js';
export { closedDeals } from './closed-deals-sql.js';
export { PROPERTIES_FOR_MATCHING } from './matching-view-sql.js';
