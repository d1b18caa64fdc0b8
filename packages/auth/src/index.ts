export { SCOPES, unknownScopes, type Scope } from './scopes.js';
export { generateKey, parseKey, hashKey, type ParsedKey } from './key-format.js';
export { KeyVerifier, type AuthContext, type VerifierOptions } from './verifier.js';
export { authPlugin } from './plugin.js';
export { createApiKey, revokeApiKey, toApiKeyView, UnknownScopeError, type ApiKeyView } from './keys-service.js';
export { apiKeyRoutes, type ApiKeyRoutesOptions } from './routes.js';
export { createServiceApp, type ServiceAppDeps, type ServiceAppOptions, type ApiContext } from './service-app.js';
