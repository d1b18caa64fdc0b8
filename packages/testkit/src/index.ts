export { createTestDatabase, adminUrl, queryAt, type TestDatabase } from './database.js';
export { databaseBefore, type DatabaseBefore } from './database-before.js';
export { createTenant, addKey, otherServiceThan, TEST_PEPPER, TEST_SERVICES, type Tenant } from './fixtures.js';
export { LogCapture } from './log-capture.js';
export {
  describeSecurity,
  webhookSecurityRoutes,
  type SecurityFixture,
  type SecurityRoute,
  type InjectResponse,
} from './security-suite.js';
export { apiKeySecurityRoutes } from './api-key-security-routes.js';
export { withDatabase, TEMPLATE_DATABASE } from './global-setup.js';
export { startTestApp, TEST_PUBLIC_BASE_URL, type TestApp, type AppBuildDeps } from './app-harness.js';
export { limiterRedis, testRedis } from './redis.js';
export { startReceiver, until, type Receiver, type ReceivedRequest } from './webhook-receiver.js';
export { startSmtpSink, type SmtpSink, type ReceivedMail } from './smtp-sink.js';
export { eventSecurityRoutes } from './event-security-routes.js';
export { newestFirstIds, walkPagesLikePrisma } from './pages-like-prisma.js';
export { whileHeld, lockWaiters, untilLockWaiters } from './locks.js';
export { openApiSnapshot, prettyDocument } from './openapi-snapshot.js';
export { folderImports, importCircles } from './folder-imports.js';
export { schemaAt, SHELL_COMPONENTS, type OpenApiDocument, type Schema } from './openapi-schemas.js';
export {
  findBreakingChanges,
  formatBreakingChanges,
  type BreakingChange,
  type BreakingRule,
} from './openapi-breaking.js';
export { freePort } from './ports.js';
export { distinctFreePorts } from './distinct-ports.js';
export { startServices, type StartedServices } from './start-process.js';
export { runScript, type ScriptRun } from './run-script.js';
export { testSandbox, SANDBOX_ENTRY } from './sandbox.js';
export { startPgBouncer, type StartedPgBouncer, type PgBouncerOptions } from './pgbouncer.js';
export { makeTestCertificates, type TestCertificates } from './test-certificates.js';
export { startNginx, PROXY_PARAMS, type Nginx, type ProxySite } from './nginx.js';
export { startScaledDeployment, type ScaledDeployment, type Instance } from './scaled-deployment.js';
export { startSystemPostgres, type SystemPostgres } from './system-postgres.js';
export { startSentinelRedis, type SentinelRedis } from './redis-sentinel.js';
export { startSftpServer, type SftpServer } from './sftp-server.js';
export { startFtpServer, type FtpServer } from './ftp-server.js';
export { startCutProxy, type CutProxy } from './cut-proxy.js';
