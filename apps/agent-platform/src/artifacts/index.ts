// The public surface of the agent artifacts resource: the app uses only this.
export { artifactRoutes } from './routes.js';
export { createArtifactService, type ArtifactService, type ArtifactServiceDeps } from './service.js';
export { ARTIFACT_KINDS, ARTIFACT_MAX_BYTES, ARTIFACT_TYPES } from './schemas.js';
export { artifactsOfAgent } from './repository.js';
