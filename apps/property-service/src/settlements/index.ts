// The public surface of commission settlements: the rules (pure), the check when terms are set, the service and routes.
export { settlementRoutes } from './routes.js';
export { assertCommissionAllowed, commissionTermsOf, createSettlementService, type CommissionSubject, type SettlementService } from './service.js';
export { COMMISSION_RULES_VERSION, commissionViolations, settleCommission, type CommissionTerms } from './commission-rules.js';
export { SettlementSchema, type Settlement } from './schemas.js';
