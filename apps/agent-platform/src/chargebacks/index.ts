// The public surface of the chargebacks resource (settlements, internal invoices, the monthly run): the app and its jobs use only this.
export { chargebackRoutes } from './routes.js';
export { createChargebackService, type ChargebackService } from './service.js';
export { GENERATE_INTERNAL_INVOICE_JOB, SWEEP_INTERNAL_INVOICES_JOB } from './generation.js';
export {
  CHARGEBACKS_JOB,
  settleChargebacks,
  SettlementRefused,
  type SettlementOutcome,
  type SettleRequest,
} from './settle.js';
