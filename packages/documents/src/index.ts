export * from './pdf.js';
export {
  DocumentRenderError,
  generateDocument,
  sweepDocuments,
  requestGeneration,
  generationJobId,
  resumeLostGenerations,
  STUCK_AFTER_MS,
  MAX_SWEEPS,
  MAX_ABNORMAL_ENDS,
} from './generation.js';
export type { DocumentKind, GenerationDeps, GenerationOutcome, RenderRequest } from './generation.js';
export { assertPublishable, assertRulePasses, markPublished, markWithdrawn } from './publication.js';
export { documentFile, documentState, storedFile } from './view.js';
export { documentJobs, type DocumentJobs, type DocumentJobsOptions } from './jobs.js';
export { renderTask, type RenderTask, type RenderJob, type FileReader } from './render.js';
