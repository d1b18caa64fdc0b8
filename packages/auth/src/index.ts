export { unknownScopes, type KeyOwner } from './key-owner.js';
export { generateKey, parseKey, hashKey, type ParsedKey } from './key-format.js';
export { KeyVerifier, type AuthContext, type VerifierOptions } from './verifier.js';
export { authPlugin, type AuthPluginOptions, type AuthenticatedRoute } from './plugin.js';
export {
  createApiKey,
  revokeApiKey,
  toApiKeyView,
  activeKeys,
  DEFAULT_KEYS_PER_APPLICATION,
  KeyLimitError,
  UnknownScopeError,
  type ApiKeyView,
} from './keys-service.js';
export { apiKeyRoutes, KEYS_SCOPE, type ApiKeyRoutesOptions } from './routes.js';
export { rollApiKey, KeyNotRollableError, MAX_ROLL_EXPIRY_HOURS, type RolledKey } from './key-roll.js';
export {
  insertApplication,
  applicationById,
  applicationsByIds,
  updateApplication,
  keysOfApplication,
  keyById,
  findKeyById,
  applicationIdsOfAccount,
} from './applications.js';
export { sendKeyAgeNotices, KEY_ROTATION_DAYS, type KeyAgeNoticeReport } from './key-age-notice.js';
