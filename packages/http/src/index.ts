export * from './errors.js';
export { CONSTRAINT_KEYS_DE, type Constraint } from './detail-messages.js';
export { tooLargeError, DEFAULT_BODY_LIMIT } from './request-limits.js';
export * from './validation.js';
export * from './schema-helpers.js';
export * from './pagination.js';
export * from './responses.js';
export {
  serverOptions,
  redactUrl,
  secretSegmentPattern,
  REDACTED_PATHS,
  type ServerOptionsInput,
} from './server-options.js';
export { httpPlugin, type HttpPluginOptions } from './plugin.js';
export { createApiServer, type ApiServerOptions, type ApiDocument } from './server.js';
export { mergePatch, withoutNulls, applyMergePatch, changedPaths } from './merge-patch.js';
export { summariseError, type ErrorSummary } from './error-summary.js';
