export { unknownScopes, type KeyOwner } from './key-owner.js';
export { generateKey, parseKey, hashKey, type ParsedKey } from './key-format.js';
export { KeyVerifier, type AuthContext, type VerifierOptions } from './verifier.js';
export { authPlugin, type AuthPluginOptions, type AuthenticatedRoute } from './plugin.js';
export {
  createApiKey,
  revokeApiKey,
  toApiKeyView,
  DEFAULT_KEYS_PER_APPLICATION,
  KeyLimitError,
  UnknownScopeError,
  type ApiKeyView,
} from './keys-service.js';
export { apiKeyRoutes, type ApiKeyRoutesOptions } from './routes.js';
export {
  insertApplication,
  applicationById,
  applicationsByIds,
  updateApplication,
  keysOfApplication,
  keyById,
  applicationIdsOfAccount,
} from './applications.js';
