// The public surface of the cost-estimates resource: the app uses only this.
export { costEstimateRoutes } from './routes.js';
export { createCostEstimateService, type CostEstimateService } from './service.js';
export { COST_METHOD_VERSION } from './estimate.js';
