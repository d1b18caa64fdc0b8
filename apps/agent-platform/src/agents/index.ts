// The public surface of the agents resource: other resources and the app use only this.
export { agentRoutes } from './routes.js';
export { createAgentService, type AgentService, type AgentServiceDeps } from './service.js';
export {
  activeAgentsSharingCapabilities,
  activeAgentsWithCapabilities,
  agentName,
  agentNames,
  agentRepository,
  agentUnits,
  countArtifacts,
  lockAgentForUsage,
  ratesByIds,
  type AgentRow,
} from './repository.js';
export { ratesOfAccount, unratedAgentsOfAccount } from './rates-sql.js';
export {
  AgentSchema,
  CAPABILITY_NAME_PATTERN,
  CHARGEBACK_UNITS,
  DATA_CLASSIFICATIONS,
  type Agent,
  type DataClassification,
} from './schemas.js';
export { toAgent } from './mapping.js';
