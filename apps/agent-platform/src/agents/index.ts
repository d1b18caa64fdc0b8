// The public surface of the agents resource: other resources and the app use only this.
export { agentRoutes } from './routes.js';
export { createAgentService, type AgentService, type AgentServiceDeps } from './service.js';
export {
  activeAgentsSharingCapabilities,
  activeAgentsWithCapabilities,
  agentName,
  agentNames,
  agentRepository,
  countArtifacts,
  ratesByIds,
  type AgentRow,
} from './repository.js';
export {
  AgentSchema,
  CAPABILITY_NAME_PATTERN,
  CHARGEBACK_UNITS,
  DATA_CLASSIFICATIONS,
  type Agent,
  type DataClassification,
} from './schemas.js';
export { toAgent } from './mapping.js';
