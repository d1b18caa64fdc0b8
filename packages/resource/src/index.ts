export {
  tenantRepository,
  scopeOf,
  type TenantRepository,
  type TenantModel,
  type RepositoryOptions,
  type PageRequest,
} from './repository.js';
export { patchUnderLock, definePatch, type PatchDefinition, type PatchRequest } from './patch.js';
export {
  applyTransition,
  canTransition,
  defineTransitions,
  type Transition,
  type TransitionTable,
  type TransitionDefinition,
  type TransitionRequest,
  type StatusModel,
} from './transitions.js';
export { scoreColumns, scoredPage, rescoreUnderLock, type ScoreColumns, type ScoreReading } from './scored.js';
