-- The agent platform has one identifier everywhere: the service value `agents` becomes
-- `agent_platform` (applications, webhook endpoints and outbox events keep their rows).
ALTER TYPE "Service" RENAME VALUE 'agents' TO 'agent_platform';
