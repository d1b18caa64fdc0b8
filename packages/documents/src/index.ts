export * from './pdf.js';
export { DocumentRenderError, generateDocument, sweepDocuments, requestGeneration, generationJobId, STUCK_AFTER_MS, MAX_SWEEPS } from './generation.js';
export type { DocumentKind, GenerationDeps, GenerationOutcome } from './generation.js';
export { assertPublishable, assertRulePasses, markPublished, markWithdrawn } from './publication.js';
export { stripImageMetadata, ImageMetadataError } from './image-metadata.js';
export { documentFile, documentState, storedFile } from './view.js';
export { documentJobs, type DocumentJobs, type DocumentJobsOptions } from './jobs.js';
