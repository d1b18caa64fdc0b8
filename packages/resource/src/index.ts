export { tenantRepository, scopeOf, type TenantRepository, type TenantModel, type RepositoryOptions, type PageRequest } from './repository.js';
export { patchUnderLock, type PatchOptions } from './patch.js';
export { applyTransition, canTransition, type Transition, type TransitionTable, type TransitionRequest, type StatusModel } from './transitions.js';
export { scoreColumns, scoredPage, rescoreUnderLock, type ScoreColumns, type ScoreReading } from './scored.js';
