// The public surface of valuations: the app registers the routes; the method is pure and testable on its own.
export { valuationRoutes } from './routes.js';
export { createValuationService, marketingOf, type ValuationService } from './service.js';
export {
  valuate,
  VALUATION_METHOD_VERSION,
  type ComparableInput,
  type Valuation,
  type ValuationSubject,
} from './method.js';
export { ValuationSchema, ValuedComparableSchema } from './schemas.js';
export { insertMarketTransactions } from './repository.js';
