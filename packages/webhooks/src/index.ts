export {
  computeSignature,
  signatureHeader,
  verifySignature,
  type VerifyOptions,
  type VerifyResult,
  type VerifyFailure,
} from './signature.js';
export {
  checkTargetUrl,
  guardedLookup,
  isBlockedAddress,
  SANDBOX_PRIVATE_TARGETS_HINT,
  type SsrfPolicy,
  type Resolver,
} from './ssrf.js';
export {
  headerNames,
  eventEmitter,
  type EventCatalogue,
  type EventDefinition,
  type EventData,
  type EventEmitter,
  type EventType,
  type HeaderNames,
} from './catalogue.js';
export { SecretBox, generateSigningSecret } from './secret-box.js';
export { RETRY_DELAYS_MS, PAUSE_AFTER_MS, DELIVERY_TIMEOUT_MS, SECRET_OVERLAP_MS, retryDelay } from './schedule.js';
export { recordEvent, recordEvents, type EventInput } from './outbox.js';
export {
  DELIVERY_QUEUE,
  createDeliveryQueue,
  enqueueDeliveries,
  removeJob,
  deliveryJobOptions,
  type DeliveryJob,
} from './queue.js';
export {
  relayOnce,
  enqueueRequestedDeliveries,
  requeueStaleDeliveries,
  failDelivery,
  type RelayDeps,
  type SweepResult,
} from './relay.js';
export {
  attemptDelivery,
  deliveryDispatcher,
  responseExcerpt,
  type DeliveryDeps,
  type DeliveryOutcome,
  type AttemptReport,
} from './delivery.js';
export { startDeliveryWorker, startRelay, type WorkerOptions } from './worker.js';
export { resumeEndpoint, pauseEndpoint, deleteEndpoint } from './endpoint-ops.js';
export { purgeDeletedEndpoints } from './endpoint-sql.js';
export { webhookRoutes } from './routes/plugin.js';
export {
  createWebhookService,
  DEFAULT_MAX_ENDPOINTS_PER_ACCOUNT,
  DEFAULT_TEST_EVENTS_PER_MINUTE,
  type WebhookInfrastructure,
  type WebhookServiceDeps,
} from './routes/service.js';
export { pruneDeliveryHistory, DELIVERY_HISTORY_DAYS } from './history-sql.js';
export { advanceRedeliveries, REDELIVERY_BATCH_SIZE } from './redelivery-sql.js';
export {
  sendEndpointAlerts,
  FAILING_ALERT_AFTER_MS,
  ALERT_INTERVAL_MS,
  type AlertSettings,
  type AlertRun,
} from './alerts.js';
export {
  eventRoutes,
  ereignisRoutes,
  eventsNaming,
  readableEventTypes,
  type EventNaming,
  type EventServiceDeps,
} from './events/index.js';
