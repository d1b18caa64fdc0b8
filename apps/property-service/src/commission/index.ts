// The public surface of the commission rules (pure: no database): properties check terms when they
// are set, listings at publication, settlements compute the amounts.
export {
  assertCommissionAllowed,
  assertCommissionPublishable,
  commissionTermsOf,
  refuseCommission,
  type CommissionSubject,
  type PublishableProperty,
} from './checks.js';
export {
  COMMISSION_RULES_VERSION,
  commissionViolations,
  settleCommission,
  type CommissionTerms,
  type Marketing,
} from './rules.js';
