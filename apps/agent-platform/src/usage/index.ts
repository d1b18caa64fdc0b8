// The public surface of the usage resource: other resources and the app use only this.
export { usageRoutes } from './routes.js';
export { createUsageService, type UsageService } from './service.js';
export { claimUnsettledUsage, countUnsettledUsage, monthlyUsage, type MonthlyUsage } from './usage-sql.js';
