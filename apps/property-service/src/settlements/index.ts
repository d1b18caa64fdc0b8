// The public surface of commission settlements: the rules (pure), the checks when terms are set and at publication, the service and routes.
export { settlementRoutes } from './routes.js';
export {
  assertCommissionAllowed,
  assertCommissionPublishable,
  commissionTermsOf,
  createSettlementService,
  type CommissionSubject,
  type PublishableProperty,
  type SettlementService,
} from './service.js';
export {
  COMMISSION_RULES_VERSION,
  commissionViolations,
  settleCommission,
  type CommissionTerms,
} from './commission-rules.js';
export { SettlementSchema, type Settlement } from './schemas.js';
