// The public surface of commission settlements: the service and routes (the commission rules are in ../commission).
export { settlementRoutes } from './routes.js';
export { createSettlementService, type SettlementService } from './service.js';
export { SettlementSchema, type Settlement } from './schemas.js';
