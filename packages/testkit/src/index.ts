export { createTestDatabase, adminUrl, type TestDatabase } from './database.js';
export { createTenant, addKey, TEST_PEPPER, type Tenant } from './fixtures.js';
export { LogCapture } from './log-capture.js';
export { describeSecurity, webhookSecurityRoutes, type SecurityFixture, type SecurityRoute, type InjectResponse } from './security-suite.js';
export { withDatabase, TEMPLATE_DATABASE } from './global-setup.js';
export { startTestApp, type TestApp, type AppBuildDeps } from './app-harness.js';
export { testRedis } from './redis.js';
export { startReceiver, until, type Receiver, type ReceivedRequest } from './webhook-receiver.js';
export { whileHeld } from './locks.js';
